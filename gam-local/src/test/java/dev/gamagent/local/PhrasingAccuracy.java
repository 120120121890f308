package dev.gamagent.local;

import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;
import dev.gamagent.config.Config;
import dev.gamagent.engine.AnswerExtractor;
import dev.gamagent.engine.Prompts;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * {@code single} accuracy of the local model on generated images asked two ways: with the generator's own
 * question and with a person's phrasing of it (a {@link Rephrasings} set). Run (after {@code mvn test-compile}):
 * <pre>
 * mvn -B -q dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -Djava.awt.headless=true -cp target/classes:target/test-classes:$(cat /tmp/cp.txt) \
 *     dev.gamagent.local.PhrasingAccuracy [n] [seed] [hardFraction] [resource]
 * </pre>
 */
public final class PhrasingAccuracy {
    /** Right and total per family, and overall. */
    record Tally(Map<String, int[]> perFamily, int right, int total) {
        double accuracy() { return total == 0 ? Double.NaN : (double) right / total; }

        String describe() {
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%.3f (%d/%d)", accuracy(), right, total));
            perFamily.forEach((k, v) -> sb.append(String.format(Locale.ROOT, " %s %d/%d", k, v[0], v[1])));
            return sb.toString();
        }
    }

    private final LocalBackend backend;
    private final Prompts prompts = new Prompts(Config.defaults());

    PhrasingAccuracy(LocalBackend backend) { this.backend = backend; }

    /** The {@code single} prompt (VLMEvalKit's) on each question; the option letter extracted as `gam eval` does. */
    Tally measure(List<BenchItem> items, Function<BenchItem, KeyedItem> ask) {
        Map<String, int[]> fam = new TreeMap<>();
        int right = 0;
        for (BenchItem it : items) {
            KeyedItem q = ask.apply(it);
            String prompt = prompts.render("single_mc", Map.of("question", q.render()));
            ChatResult r = backend.chat(ChatRequest.of(List.of(ChatMessage.user(prompt, q.images()))));
            boolean ok = q.groundTruth().equals(AnswerExtractor.option(r.text(), q.options()));
            int[] a = fam.computeIfAbsent(it.category(), k -> new int[2]);
            a[1]++;
            if (ok) { a[0]++; right++; }
        }
        return new Tally(fam, right, items.size());
    }

    /** One rephrasing per item, drawn from a source seeded by the item index (the same every run). */
    static Function<BenchItem, KeyedItem> rephrased(Rephrasings set, long seed) {
        return it -> set.rephrase(it, new Random(seed * 1_000_003L + it.index()));
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 120;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 11;
        double hard = args.length > 2 ? Double.parseDouble(args[2]) : 0.25;
        String resource = args.length > 3 ? args[3] : "/paraphrase/phrasings.tsv";
        List<BenchItem> items = new BenchmarkGenerator(seed, hard).generate(n, Arrays.asList(Family.values()));
        Rephrasings set = Rephrasings.load(resource);
        try (LocalBackend backend = LocalBackend.create(Config.defaults())) {
            PhrasingAccuracy m = new PhrasingAccuracy(backend);
            Tally gen = m.measure(items, KeyedItem::of);
            Tally para = m.measure(items, rephrased(set, seed));
            System.out.println("generator phrasing: " + gen.describe());
            System.out.println("paraphrased:        " + para.describe());
            List<String> misses = new ArrayList<>();
            for (BenchItem it : items) {
                KeyedItem q = rephrased(set, seed).apply(it);
                QuestionFamily want = QuestionReader.recognize(it.question(), new ArrayList<>(it.options().values()));
                QuestionFamily got = QuestionReader.recognize(q.text(), new ArrayList<>(q.options().values()));
                if (!String.valueOf(want).equalsIgnoreCase(String.valueOf(got))) misses.add(q.text() + " " + q.options().values() + " -> " + got + " (want " + want + ")");
            }
            java.util.Set<String> unread = new java.util.TreeSet<>();
            for (BenchItem it : items) {
                KeyedItem q = rephrased(set, seed).apply(it);
                unread.addAll(QuestionReader.read(q.text(), new ArrayList<>(q.options().values())).unread());
            }
            System.out.println("words not read: " + unread);
            System.out.println("read differently from the generator's question: " + misses.size());
            misses.forEach(x -> System.out.println("  " + x));
        }
    }
}
