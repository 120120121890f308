package dev.gamagent.local;

import dev.gamagent.api.Question;
import dev.gamagent.bench.BenchItem;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A set of people's phrasings of the benchmark's questions (a TSV under src/test/resources: family, variant,
 * phrasing with placeholders) applied to generated items: the generator's question is recognised by its
 * own template (CONTRACTS §3), its parameters are put into a phrasing of the same variant, and the options
 * are rewritten as a person might list them (another order, another case, an article, a number word).
 */
final class Rephrasings {
    /** One phrasing: which question it asks and its text with placeholders. */
    record Phrasing(String family, String variant, String text) { }

    /** The generator's question recognised: its variant and the values of its placeholders. */
    record Asked(String family, String variant, Map<String, String> values) { }

    private static final List<Pattern> TEMPLATES = List.of(
            Pattern.compile("What word is written on the (sign)\\?"),
            Pattern.compile("What does the (label) say\\?"),
            Pattern.compile("What is written in the (small print)\\?"),
            Pattern.compile("How many (?<shape>circle|square|triangle|star|hexagon)s are there in the image\\?"),
            Pattern.compile("How many (?<color>[a-z]+) objects are there in the image\\?"),
            Pattern.compile("How many (objects) are there in the image\\?"),
            Pattern.compile("What color is the (?<shape>[a-z]+)\\?"),
            Pattern.compile("What shape is the (?<color>[a-z]+) object\\?"),
            Pattern.compile("Which object is (to the left of) the (?<obj>[a-z]+ [a-z]+)\\?"),
            Pattern.compile("Which object is (above) the (?<obj>[a-z]+ [a-z]+)\\?"),
            Pattern.compile("Which object is (nearest to) the (?<obj>[a-z]+ [a-z]+)\\?"),
            Pattern.compile("Is the (?<obj>[a-z]+ [a-z]+) (to the left of or to the right of) the (?<obj2>[a-z]+ [a-z]+)\\?"),
            Pattern.compile("Is the (?<obj>[a-z]+ [a-z]+) (above or below) the (?<obj2>[a-z]+ [a-z]+)\\?"),
            Pattern.compile("Which bar is the (tallest)\\?"),
            Pattern.compile("Which bar is the (shortest)\\?"),
            Pattern.compile("What is the value of the bar labeled (?<label>[a-z]+)\\?"),
            Pattern.compile("Which is larger, (?<label1>[a-z]+) or (?<label2>[a-z]+)\\?"));
    private static final List<String> VARIANTS = List.of("text/sign", "text/label", "text/smallprint", "count/shape", "count/color",
            "count/all", "color/shape", "shape/color", "spatial/left_of", "spatial/above", "spatial/nearest",
            "spatial/left_or_right", "spatial/above_or_below", "chart/tallest", "chart/shortest", "chart/value", "chart/larger");
    private static final String[] NUMBER_WORDS = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
            "nine", "ten", "eleven", "twelve"};

    private final List<Phrasing> phrasings;

    Rephrasings(List<Phrasing> phrasings) { this.phrasings = List.copyOf(phrasings); }

    /** The set in a test resource, e.g. {@code /paraphrase/phrasings.tsv}. */
    static Rephrasings load(String resource) {
        List<Phrasing> out = new ArrayList<>();
        try (InputStream in = Rephrasings.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalArgumentException("test resource " + resource + " is missing");
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                if (line.isBlank() || line.startsWith("#") || line.startsWith("family\t")) continue;
                String[] f = line.split("\t");
                if (f.length != 3 || !VARIANTS.contains(f[0] + "/" + f[1])) {
                    throw new IllegalArgumentException(resource + " line " + n + ": expected family<TAB>variant<TAB>phrasing with a known variant, got '" + line + "'");
                }
                out.add(new Phrasing(f[0], f[1], f[2]));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Rephrasings(out);
    }

    List<Phrasing> phrasings() { return phrasings; }

    /** The generator's question recognised by its template. */
    static Asked asked(String question) {
        for (int i = 0; i < TEMPLATES.size(); i++) {
            Matcher m = TEMPLATES.get(i).matcher(question);
            if (!m.matches()) continue;
            Map<String, String> values = new LinkedHashMap<>();
            for (String g : List.of("shape", "color", "obj", "obj2", "label", "label1", "label2")) {
                try {
                    if (m.group(g) != null) values.put(g, m.group(g));
                } catch (IllegalArgumentException e) {
                    // this template has no such group
                }
            }
            String[] fv = VARIANTS.get(i).split("/");
            return new Asked(fv[0], fv[1], values);
        }
        throw new IllegalArgumentException("not a generator question: '" + question + "'");
    }

    /** The phrasings that ask the same as {@code asked}. */
    List<Phrasing> of(Asked asked) {
        return phrasings.stream().filter(p -> p.family().equals(asked.family()) && p.variant().equals(asked.variant())).toList();
    }

    /**
     * The item's question rephrased with a phrasing of its variant and its options rewritten, both drawn
     * from {@code rng}; the correct answer is the same option value, under its new letter.
     */
    KeyedItem rephrase(BenchItem item, Random rng) {
        Asked a = asked(item.question());
        List<Phrasing> same = of(a);
        if (same.isEmpty()) throw new IllegalStateException("no phrasing for " + a.family() + "/" + a.variant());
        String text = fill(same.get(rng.nextInt(same.size())).text(), a.values());
        Question q = item.toQuestion();
        return rewriteOptions(new KeyedItem(new Question(q.id(), q.images(), text, q.hint(), q.options()), item.answer()), a.family(), rng);
    }

    static String fill(String template, Map<String, String> values) {
        String s = template;
        for (var e : values.entrySet()) s = s.replace("{" + e.getKey() + "}", e.getValue());
        if (s.contains("{")) throw new IllegalStateException("unfilled placeholder in '" + s + "' (values " + values + ")");
        return s;
    }

    /** Options in another order and written another way (case, article, number words); same correct value. */
    static KeyedItem rewriteOptions(KeyedItem q, String family, Random rng) {
        List<String> values = new ArrayList<>(q.options().values());
        String correct = q.options().get(q.groundTruth());
        java.util.Collections.shuffle(values, rng);
        int casing = rng.nextInt(3);
        boolean article = rng.nextBoolean(), words = rng.nextInt(3) == 0, sided = rng.nextBoolean();
        Map<String, String> out = new LinkedHashMap<>();
        String answer = null;
        for (int i = 0; i < values.size(); i++) {
            String v = values.get(i), w = v;
            if (family.equals("count") && words && v.matches("\\d+") && Integer.parseInt(v) < NUMBER_WORDS.length) w = NUMBER_WORDS[Integer.parseInt(v)];
            if (family.equals("spatial") && v.contains(" ")) w = (article ? "the " : "a ") + v;
            if (family.equals("spatial") && sided && (v.equals("left") || v.equals("right"))) w = "on the " + v;
            if (family.equals("shape") && article) w = "a " + v;
            w = switch (casing) {
                case 1 -> Character.toUpperCase(w.charAt(0)) + w.substring(1);
                case 2 -> w.toUpperCase(Locale.ROOT);
                default -> w;
            };
            String letter = String.valueOf((char) ('A' + i));
            out.put(letter, w);
            if (v.equals(correct)) answer = letter;
        }
        return q.withOptions(out, answer);
    }
}
