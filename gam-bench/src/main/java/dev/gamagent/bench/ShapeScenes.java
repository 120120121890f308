package dev.gamagent.bench;

import dev.gamagent.bench.SceneTruth.PlacedShape;

import java.awt.Color;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/** Scenes of filled shapes for the count, color, shape and spatial families (CONTRACTS §3 templates). */
final class ShapeScenes extends Scenes {
    ShapeScenes(Random rng, Difficulty d, RenderStyle style) {
        super(rng, d, style);
    }

    private record Spec(String shape, String color) { }

    BenchItem count(int index) {
        Canvas canvas = newCanvas();
        List<Spec> specs = new ArrayList<>();
        String question;
        int k;
        int variant = rng.nextInt(3);
        if (variant == 0) {
            String target = Palette.pick(Palette.SHAPES, rng);
            k = 1 + rng.nextInt(d.maxCount());
            for (int i = 0; i < k; i++) specs.add(new Spec(target, Palette.pick(Palette.COLORS, rng)));
            int others = rng.nextInt(d.clutter() + 1);
            for (int i = 0; i < others; i++) specs.add(new Spec(other(Palette.SHAPES, target), Palette.pick(Palette.COLORS, rng)));
            question = "How many " + target + "s are there in the image?";
        } else if (variant == 1) {
            String target = Palette.pick(Palette.COLORS, rng);
            k = 1 + rng.nextInt(d.maxCount());
            for (int i = 0; i < k; i++) specs.add(new Spec(Palette.pick(Palette.SHAPES, rng), target));
            int others = rng.nextInt(d.clutter() + 1);
            for (int i = 0; i < others; i++) specs.add(new Spec(Palette.pick(Palette.SHAPES, rng), other(Palette.COLORS, target)));
            question = "How many " + target + " objects are there in the image?";
        } else {
            k = 2 + rng.nextInt(d.maxCount() + d.clutter() / 2 - 1);
            for (int i = 0; i < k; i++) specs.add(new Spec(Palette.pick(Palette.SHAPES, rng), Palette.pick(Palette.COLORS, rng)));
            question = "How many objects are there in the image?";
        }
        shuffle(specs);
        List<PlacedShape> placed = place(canvas, specs);
        List<String> distractors = numberDistractors(k, variant == 2 ? 1 : 0);
        return new Draft(question, String.valueOf(k), distractors)
                .item(index, rng, canvas, Family.COUNT, d, new SceneTruth(placed, List.of(), null));
    }

    BenchItem color(int index) { return askOther(index, true); }

    BenchItem shape(int index) { return askOther(index, false); }

    /**
     * One object named by one of its attributes among 1..clutter others that differ from it in that attribute, and
     * the question asks for its other attribute: its colour, named by its shape ({@code askColor}), or its shape, named
     * by its colour. Distractors prefer the other objects' values of the asked attribute.
     */
    private BenchItem askOther(int index, boolean askColor) {
        Canvas canvas = newCanvas();
        String shape = Palette.pick(Palette.SHAPES, rng);
        String color = Palette.pick(Palette.COLORS, rng);
        List<Spec> specs = new ArrayList<>();
        specs.add(new Spec(shape, color));
        int others = 1 + rng.nextInt(d.clutter());
        for (int i = 0; i < others; i++) {
            specs.add(askColor ? new Spec(other(Palette.SHAPES, shape), Palette.pick(Palette.COLORS, rng))
                    : new Spec(Palette.pick(Palette.SHAPES, rng), other(Palette.COLORS, color)));
        }
        shuffle(specs);
        List<PlacedShape> placed = place(canvas, specs);
        String answer = askColor ? color : shape;
        List<String> present = placed.stream().map(askColor ? PlacedShape::color : PlacedShape::shape).filter(v -> !v.equals(answer))
                .distinct().toList();
        List<String> distractors = distractors(answer, present, askColor ? Palette.COLORS : Palette.SHAPES, 3);
        String question = askColor ? "What color is the " + shape + "?" : "What shape is the " + color + " object?";
        return new Draft(question, answer, distractors)
                .item(index, rng, canvas, askColor ? Family.COLOR : Family.SHAPE, d, new SceneTruth(placed, List.of(), null));
    }

    /** Spatial questions; a scene is redrawn until the chosen template has exactly one correct option. */
    BenchItem spatial(int index) {
        int variant = rng.nextInt(5);
        for (int attempt = 0; attempt < 200; attempt++) {
            Canvas canvas = newCanvas();
            int n = 3 + rng.nextInt(Math.max(2, d.clutter() - 1));
            List<Spec> specs = uniqueSpecs(n);
            List<PlacedShape> placed = place(canvas, specs);
            Draft draft = spatialDraft(variant, placed);
            if (draft != null) {
                return draft.item(index, rng, canvas, Family.SPATIAL, d, new SceneTruth(placed, List.of(), null));
            }
            canvas.finish();
        }
        throw new IllegalStateException("item " + index + ": no spatial scene satisfied template " + variant + " in 200 attempts");
    }

    private Draft spatialDraft(int variant, List<PlacedShape> objs) {
        PlacedShape ref = objs.get(rng.nextInt(objs.size()));
        List<PlacedShape> others = new ArrayList<>(objs);
        others.remove(ref);
        switch (variant) {
            case 0, 1 -> {
                boolean horizontal = variant == 0;
                List<PlacedShape> yes = new ArrayList<>(), no = new ArrayList<>();
                for (PlacedShape o : others) {
                    double delta = horizontal ? ref.cx() - o.cx() : ref.cy() - o.cy();
                    double margin = Math.max(o.radius(), ref.radius());
                    if (delta > margin) yes.add(o);
                    else if (delta < -margin) no.add(o);
                }
                if (yes.isEmpty() || no.isEmpty()) return null;
                PlacedShape answer = yes.get(rng.nextInt(yes.size()));
                shuffle(no);
                List<String> distractors = no.subList(0, Math.min(3, no.size())).stream().map(PlacedShape::name).toList();
                String q = horizontal ? "Which object is to the left of the " + ref.name() + "?"
                        : "Which object is above the " + ref.name() + "?";
                return new Draft(q, answer.name(), distractors);
            }
            case 2 -> {
                if (others.size() < 2) return null;
                others.sort(Comparator.comparingDouble(o -> Math.hypot(o.cx() - ref.cx(), o.cy() - ref.cy())));
                double d1 = dist(ref, others.get(0)), d2 = dist(ref, others.get(1));
                if (d2 < 1.3 * d1) return null;
                List<PlacedShape> rest = new ArrayList<>(others.subList(1, others.size()));
                shuffle(rest);
                List<String> distractors = rest.subList(0, Math.min(3, rest.size())).stream().map(PlacedShape::name).toList();
                return new Draft("Which object is nearest to the " + ref.name() + "?", others.get(0).name(), distractors);
            }
            default -> {
                boolean horizontal = variant == 3;
                PlacedShape o = others.get(rng.nextInt(others.size()));
                double delta = horizontal ? ref.cx() - o.cx() : ref.cy() - o.cy();
                if (Math.abs(delta) <= Math.max(o.radius(), ref.radius())) return null;
                if (horizontal) {
                    String correct = delta < 0 ? "left" : "right";
                    return new Draft("Is the " + ref.name() + " to the left of or to the right of the " + o.name() + "?",
                            correct, List.of(correct.equals("left") ? "right" : "left"));
                }
                String correct = delta < 0 ? "above" : "below";
                return new Draft("Is the " + ref.name() + " above or below the " + o.name() + "?",
                        correct, List.of(correct.equals("above") ? "below" : "above"));
            }
        }
    }

    private static double dist(PlacedShape a, PlacedShape b) { return Math.hypot(a.cx() - b.cx(), a.cy() - b.cy()); }

    private List<Spec> uniqueSpecs(int n) {
        Set<Spec> seen = new HashSet<>();
        List<Spec> out = new ArrayList<>();
        while (out.size() < n) {
            Spec s = new Spec(Palette.pick(Palette.SHAPES, rng), Palette.pick(Palette.COLORS, rng));
            if (seen.add(s)) out.add(s);
        }
        return out;
    }

    /**
     * Places the shapes without overlap (gap of 8 px between circumcircles; on hard items centres may come to
     * (1 − {@link Difficulty#touching()}) of the sum of the radii, so shapes touch), shrinking every radius by
     * 10 % after a failed layout, then draws them.
     */
    List<PlacedShape> place(Canvas canvas, List<Spec> specs) {
        int w = canvas.width(), h = canvas.height();
        for (int attempt = 0; attempt < 60; attempt++) {
            double scale = Math.pow(0.9, attempt);
            List<double[]> circles = new ArrayList<>();
            boolean ok = true;
            for (int i = 0; i < specs.size() && ok; i++) {
                double r = Math.max(6, (d.minRadius() + rng.nextDouble() * (d.maxRadius() - d.minRadius())) * scale);
                ok = false;
                // Hard scenes put half of the shapes against an earlier one, so that same-coloured blobs merge.
                boolean nestle = d.touching() > 0 && !circles.isEmpty() && rng.nextBoolean();
                for (int t = 0; t < 300 && !ok; t++) {
                    double cx, cy;
                    if (nestle && t < 150) {
                        double[] c = circles.get(rng.nextInt(circles.size()));
                        double a = rng.nextDouble() * 2 * Math.PI, dist = (c[2] + r) * (1 - d.touching());
                        cx = c[0] + dist * Math.cos(a);
                        cy = c[1] + dist * Math.sin(a);
                        if (cx < r + 8 || cy < r + 8 || cx > w - r - 8 || cy > h - r - 8) continue;
                    } else {
                        cx = r + 8 + rng.nextDouble() * (w - 2 * r - 16);
                        cy = r + 8 + rng.nextDouble() * (h - 2 * r - 16);
                    }
                    boolean free = true;
                    for (double[] c : circles) {
                        double need = d.touching() > 0 ? (c[2] + r) * (1 - d.touching()) - 1e-6 : c[2] + r + 8;
                        if (Math.hypot(c[0] - cx, c[1] - cy) < need) { free = false; break; }
                    }
                    if (free) {
                        circles.add(new double[] {cx, cy, r});
                        ok = true;
                    }
                }
            }
            if (!ok) continue;
            List<PlacedShape> placed = new ArrayList<>();
            for (int i = 0; i < specs.size(); i++) {
                Spec s = specs.get(i);
                double[] c = circles.get(i);
                double rot = d.maxRotationDeg() == 0 ? 0 : Math.toRadians((rng.nextDouble() * 2 - 1) * d.maxRotationDeg());
                Color col = Palette.jittered(s.color(), rng, canvas.background, d.contrastBlend());
                var box = canvas.paint(Canvas.outline(s.shape(), c[0], c[1], c[2], rot), col, c[2]);
                placed.add(new PlacedShape(s.shape(), s.color(), c[0], c[1], c[2], rot, box));
            }
            return placed;
        }
        throw new IllegalStateException("cannot place " + specs.size() + " shapes on a " + w + "x" + h + " image");
    }

    private List<String> numberDistractors(int k, int min) {
        List<Integer> cands = new ArrayList<>();
        for (int v = k - 3; v <= k + 3; v++) if (v != k && v >= min) cands.add(v);
        shuffle(cands);
        cands.sort(Comparator.comparingInt(v -> Math.abs(v - k)));
        List<Integer> pick = new ArrayList<>(cands.subList(0, 3));
        pick.sort(Comparator.naturalOrder());
        return pick.stream().map(String::valueOf).toList();
    }

    /** Up to {@code n} distractors, preferring values present in the image, then any other vocabulary value. */
    private List<String> distractors(String correct, List<String> present, List<String> vocabulary, int n) {
        List<String> pool = new ArrayList<>(present);
        shuffle(pool);
        List<String> out = new ArrayList<>(pool.subList(0, Math.min(n, pool.size())));
        List<String> rest = new ArrayList<>(vocabulary);
        shuffle(rest);
        for (String v : rest) {
            if (out.size() >= n) break;
            if (!v.equals(correct) && !out.contains(v)) out.add(v);
        }
        return out;
    }

    private String other(List<String> vocabulary, String not) {
        String v;
        do v = Palette.pick(vocabulary, rng); while (v.equals(not));
        return v;
    }

    private <T> void shuffle(List<T> list) { java.util.Collections.shuffle(list, rng); }
}
