package dev.gamagent.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.util.Json;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The built-in model's low-level rates, read from the traces of an evaluation ({@code results.jsonl}), against
 * the ranges measured on real models ({@link Calibration}; docs/local-model.md, "A fair testbed"):
 * <ul>
 *   <li>sample disagreement, from {@code sc} records (its samples are one request's n choices at its temperature):
 *       the share of questions whose samples are not all the same option, and the share of sample pairs that differ;</li>
 *   <li>switches, from the records of a debate method ({@code debate} unless named): an agent right in round k−1 whose
 *       peers were all wrong, wrong in round k (right→wrong), and the reverse (wrong→right); from round 0 to 1, and
 *       over all rounds; also how often an agent whose peers all agreed with it changes anyway.</li>
 * </ul>
 * {@code bench/testbed.sh} runs the evaluation and this report. Multiple-choice records only (the option letters).
 */
public final class TestbedRates {
    /** Counts of one rate: events among cases. */
    record Rate(int events, int cases) {
        double value() { return cases == 0 ? Double.NaN : (double) events / cases; }

        /** Wilson 95 % interval. */
        double[] interval() {
            if (cases == 0) return new double[]{Double.NaN, Double.NaN};
            double z = 1.96, n = cases, p = value();
            double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
            double half = z * Math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
            return new double[]{Math.max(0, centre - half), Math.min(1, centre + half)};
        }

        Rate plus(boolean event) { return new Rate(events + (event ? 1 : 0), cases + 1); }
    }

    /** Everything read from the traces. */
    record Rates(Rate notUnanimous, Rate pairsDiffer, int samples, Rate rightToWrong, Rate wrongToRight,
                 Rate rightToWrongAll, Rate wrongToRightAll, Rate changedWhenAgreed, String debateMethod) { }

    private TestbedRates() { }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: TestbedRates [--debate METHOD] [--markdown] RESULTS.jsonl|RUN_DIR ...");
            System.exit(2);
        }
        String debate = "debate";
        boolean markdown = false;
        List<Path> files = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--debate")) {
                if (i + 1 >= args.length) { System.err.println("TestbedRates: --debate needs a method name"); System.exit(2); }
                debate = args[++i];
                continue;
            }
            if (args[i].equals("--markdown")) { markdown = true; continue; }
            Path p = Path.of(args[i]);
            files.add(Files.isDirectory(p) ? p.resolve("results.jsonl") : p);
            labels.add(Files.isDirectory(p) ? p.getFileName().toString() : String.valueOf(p.toAbsolutePath().getParent().getFileName()));
        }
        for (Path f : files) if (!Files.isRegularFile(f)) throw new IOException("no results file " + f + " (run gam eval first)");
        if (!markdown) { report(read(files, debate), System.out); return; }
        List<Rates> each = new ArrayList<>();
        for (Path f : files) each.add(read(List.of(f), debate));
        if (files.size() > 1) { labels.add("all"); each.add(read(files, debate)); }
        markdown(labels, each, System.out);
    }

    /**
     * The three cited rates as a Markdown table, one row per run (and one for all runs together when there are
     * several): value, events/cases, Wilson 95 % interval and whether the value is inside the cited range.
     */
    static void markdown(List<String> labels, List<Rates> rates, PrintStream out) {
        String m = rates.isEmpty() ? "debate" : rates.get(0).debateMethod();
        out.printf(Locale.ROOT, "| run | samples not unanimous (`sc`, %s at 0.7; cited %s) | right → wrong, all peers wrong (`%s`, round 0 → 1; cited %s) | wrong → right, all peers right (cited %s) | sample pairs that differ |%n",
                rates.isEmpty() ? "10 samples" : rates.get(0).samples() + " samples", range(Calibration.SAMPLES_NOT_UNANIMOUS), m,
                range(Calibration.RIGHT_TO_WRONG), range(Calibration.WRONG_TO_RIGHT));
        out.println("|---|---|---|---|---|");
        for (int i = 0; i < rates.size(); i++) {
            Rates r = rates.get(i);
            out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", labels.get(i), cell(r.notUnanimous(), Calibration.SAMPLES_NOT_UNANIMOUS),
                    cell(r.rightToWrong(), Calibration.RIGHT_TO_WRONG), cell(r.wrongToRight(), Calibration.WRONG_TO_RIGHT), cell(r.pairsDiffer(), null));
        }
    }

    private static String range(Calibration.Range c) { return String.format(Locale.ROOT, "%.2f–%.2f", c.low(), c.high()); }

    private static String cell(Rate r, Calibration.Range cited) {
        if (r.cases() == 0) return "— (0 cases)";
        double[] ci = r.interval();
        String s = String.format(Locale.ROOT, "%.3f (%d/%d; %.3f–%.3f)", r.value(), r.events(), r.cases(), ci[0], ci[1]);
        if (cited == null) return s;
        return s + (cited.contains(r.value()) ? " inside" : " **outside**");
    }

    static Rates read(List<Path> files, String debateMethod) throws IOException {
        Rate notUnanimous = new Rate(0, 0), pairs = new Rate(0, 0), r2w = new Rate(0, 0), w2r = new Rate(0, 0);
        Rate r2wAll = new Rate(0, 0), w2rAll = new Rate(0, 0), agreed = new Rate(0, 0);
        int samples = 0;
        for (Path f : files) {
            try (BufferedReader in = Files.newBufferedReader(f)) {
                for (String line; (line = in.readLine()) != null; ) {
                    if (line.isBlank()) continue;
                    JsonNode r = Json.MAPPER.readTree(line);
                    String truth = r.path("groundTruth").asText("");
                    JsonNode rounds = r.path("trace").path("rounds");
                    if (truth.isEmpty() || !rounds.isArray() || rounds.isEmpty()) continue;
                    String method = r.path("method").asText();
                    if (method.equals("sc")) {
                        List<String> opts = options(rounds.get(0));
                        opts.removeIf(o -> o == null);
                        if (opts.size() < 2) continue;
                        samples = Math.max(samples, opts.size());
                        notUnanimous = notUnanimous.plus(new HashSet<>(opts).size() > 1);
                        for (int i = 0; i < opts.size(); i++) {
                            for (int j = i + 1; j < opts.size(); j++) pairs = pairs.plus(!opts.get(i).equals(opts.get(j)));
                        }
                    } else if (method.equals(debateMethod)) {
                        for (int k = 1; k < rounds.size(); k++) {
                            List<String> before = options(rounds.get(k - 1)), after = options(rounds.get(k));
                            List<String> ids = ids(rounds.get(k - 1)), idsAfter = ids(rounds.get(k));
                            for (int i = 0; i < before.size(); i++) {
                                String mine = before.get(i);
                                int j = idsAfter.indexOf(ids.get(i));
                                if (mine == null || j < 0 || after.get(j) == null) continue;
                                boolean peersRight = true, peersWrong = true, peersAgree = true;
                                int peers = 0;
                                for (int q = 0; q < before.size(); q++) {
                                    if (q == i || before.get(q) == null) continue;
                                    peers++;
                                    peersRight &= before.get(q).equals(truth);
                                    peersWrong &= !before.get(q).equals(truth);
                                    peersAgree &= before.get(q).equals(mine);
                                }
                                if (peers == 0) continue;
                                boolean right = mine.equals(truth), rightAfter = after.get(j).equals(truth);
                                if (right && peersWrong) {
                                    r2wAll = r2wAll.plus(!rightAfter);
                                    if (k == 1) r2w = r2w.plus(!rightAfter);
                                }
                                if (!right && peersRight) {
                                    w2rAll = w2rAll.plus(rightAfter);
                                    if (k == 1) w2r = w2r.plus(rightAfter);
                                }
                                if (peersAgree && k == 1) agreed = agreed.plus(!after.get(j).equals(mine));
                            }
                        }
                    }
                }
            }
        }
        return new Rates(notUnanimous, pairs, samples, r2w, w2r, r2wAll, w2rAll, agreed, debateMethod);
    }

    private static List<String> options(JsonNode round) {
        List<String> out = new ArrayList<>();
        for (JsonNode a : round.path("agents")) {
            JsonNode o = a.path("option");
            out.add(o.isTextual() && !o.asText().isBlank() ? o.asText() : null);
        }
        return out;
    }

    private static List<String> ids(JsonNode round) {
        List<String> out = new ArrayList<>();
        for (JsonNode a : round.path("agents")) out.add(a.path("id").asText());
        return out;
    }

    static void report(Rates r, PrintStream out) {
        out.printf(Locale.ROOT, "%-58s %7s %9s %15s %11s %s%n", "rate", "value", "n", "95% interval", "cited", "");
        line(out, "samples not unanimous (sc, " + r.samples() + " samples per question)", r.notUnanimous(), Calibration.SAMPLES_NOT_UNANIMOUS);
        line(out, "sample pairs that differ (sc)", r.pairsDiffer(), null);
        line(out, r.debateMethod() + ": right, all peers wrong -> wrong (round 0 to 1)", r.rightToWrong(), Calibration.RIGHT_TO_WRONG);
        line(out, r.debateMethod() + ": wrong, all peers right -> right (round 0 to 1)", r.wrongToRight(), Calibration.WRONG_TO_RIGHT);
        line(out, r.debateMethod() + ": right, all peers wrong -> wrong (every round)", r.rightToWrongAll(), null);
        line(out, r.debateMethod() + ": wrong, all peers right -> right (every round)", r.wrongToRightAll(), null);
        line(out, r.debateMethod() + ": all peers agreed with it, changed anyway (round 0 to 1)", r.changedWhenAgreed(), null);
    }

    private static void line(PrintStream out, String name, Rate r, Calibration.Range cited) {
        double[] ci = r.interval();
        String verdict = cited == null || r.cases() == 0 ? "" : cited.contains(r.value()) ? "inside" : "OUTSIDE";
        out.printf(Locale.ROOT, "%-58s %7s %4d/%-4d %15s %11s %s%n", name, r.cases() == 0 ? "-" : String.format(Locale.ROOT, "%.3f", r.value()),
                r.events(), r.cases(), r.cases() == 0 ? "-" : String.format(Locale.ROOT, "%.3f-%.3f", ci[0], ci[1]),
                cited == null ? "" : String.format(Locale.ROOT, "%.2f-%.2f", cited.low(), cited.high()), verdict);
    }
}
