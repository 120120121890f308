package dev.gamagent.local;

import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;
import dev.gamagent.config.Config;
import dev.gamagent.engine.AnswerExtractor;
import dev.gamagent.image.Picture;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prints the local model's accuracy per benchmark family with the VLMEvalKit baseline prompt, at each
 * image scale (the image rescaled as DREAM's probes do), with the mean probability of the chosen letter
 * on right and wrong answers. Run (after {@code mvn -o test-compile}):
 * <pre>
 * mvn -B -q -o dependency:build-classpath -Dmdep.outputFile=cp.txt
 * java -Djava.awt.headless=true -cp target/classes:target/test-classes:$(cat cp.txt) dev.gamagent.local.LocalAccuracy [items] [seed]
 * </pre>
 */
public final class LocalAccuracy {
    private LocalAccuracy() { }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 120;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 42;
        List<BenchItem> items = new BenchmarkGenerator(seed).generate(n, List.of(Family.values()));
        try (LocalBackend backend = LocalBackend.create(Config.defaults())) {
            for (double scale : new double[]{0.5, 1.0, 2.0}) {
                Map<String, int[]> acc = new TreeMap<>();
                double pRight = 0, pWrong = 0;
                int right = 0, wrong = 0;
                long t0 = System.nanoTime();
                for (BenchItem it : items) {
                    var q = it.toQuestion();
                    Picture pic = q.images().get(0).scaled(scale, backend.capabilities().maxImagePixels());
                    String prompt = q.render() + "\nAnswer with the option's letter from the given choices directly.";
                    ChatResult r = backend.chat(ChatRequest.of(List.of(ChatMessage.user(prompt, List.of(pic)))));
                    boolean ok = it.answer().equals(AnswerExtractor.option(r.text(), it.options()));
                    double p = Math.exp(r.first().logprobs().get(0).logprob());
                    if (ok) { right++; pRight += p; } else { wrong++; pWrong += p; }
                    int[] a = acc.computeIfAbsent(it.category(), k -> new int[2]);
                    a[0] += ok ? 1 : 0;
                    a[1]++;
                }
                StringBuilder sb = new StringBuilder();
                for (var e : acc.entrySet()) sb.append(String.format(Locale.ROOT, " %s %d/%d", e.getKey(), e.getValue()[0], e.getValue()[1]));
                System.out.printf(Locale.ROOT, "scale %.1f: %d/%d correct;%s; mean p(chosen) right %.3f, wrong %.3f; %.0f ms/item%n",
                        scale, right, n, sb, right == 0 ? 0 : pRight / right, wrong == 0 ? 0 : pWrong / wrong,
                        (System.nanoTime() - t0) / 1e6 / n);
            }
        }
    }
}
