package dev.gamagent.eval.recipe;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Question;
import dev.gamagent.backend.internal.TokenEstimator;
import dev.gamagent.config.Config;
import dev.gamagent.eval.report.PriceTable;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.internal.ImageTokens;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a run will cost before it runs ({@code gam reproduce --dry-run}): per method, calls and tokens per question as
 * a range from the method's protocol ({@link ProtocolCalls}) and each question's text and image sizes, summed over the
 * questions; narrowed by a pilot's records ({@code --pilot N}).
 *
 * <p>The range per question: at least the protocol's fewest calls, each carrying the question's text (a call may go
 * without the image: critics, DREAM's smaller scales) and writing one token; at most its most calls, each carrying the
 * text, every image at the largest scale any agent sees it (DREAM's {@code dream.scales}) and counted by the most
 * generous image-token family ({@link ImageTokens}: qwen, openai, internvl, or {@code --image-tokens}'s), an
 * allowance of {@value #TEMPLATE_ALLOWANCE} tokens for the instructions (our longest template is about 600
 * characters), and every earlier reply of the question at its method's {@code max_tokens} (debate transcripts);
 * writing {@code max_tokens} each. Zoomed crops ({@code gam.zoom}) and the sampling fallback (a backend without
 * log-probs) are outside it.
 */
public final class CostEstimate {
    private CostEstimate() { }

    /** Tokens a call may spend on instructions, roles and message framing beyond the question's own text. */
    public static final long TEMPLATE_ALLOWANCE = 1024;

    private static final List<String> FAMILIES = List.of("qwen", "openai", "internvl");

    /** One question as the estimate sees it: its text's tokens and its images' tokens at the largest scale. */
    public record QuestionSize(long textTokens, long imageTokens) { }

    /** A low–high range. */
    public record Range(double low, double high) {
        public boolean contains(double v) { return v >= low - 1e-9 && v <= high + 1e-9; }

        Range times(double f) { return new Range(low * f, high * f); }

        Range plus(Range o) { return new Range(low + o.low, high + o.high); }
    }

    /**
     * One method on one benchmark.
     *
     * @param questions    questions it will answer (circular rotations each count)
     * @param callsPerQuestion the protocol's range
     * @param calls        total calls, range
     * @param promptTokens total prompt tokens, range
     * @param completionTokens total completion tokens, range
     * @param dollars      total dollars at the model's price (null: no price in {@code eval.prices})
     * @param pilot        the estimate from a pilot's records (null without one)
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record MethodEstimate(String method, int questions, ProtocolCalls.Range callsPerQuestion, String protocol, Range calls,
                                 Range promptTokens, Range completionTokens, Range dollars, Pilot pilot) { }

    /**
     * A pilot's narrowed estimate: {@code n} questions answered; the totals for all questions (calls and completion
     * tokens as the pilot's mean per question, prompt tokens as its ratio to the questions' sizes, which the estimate
     * knows for every question) with a 95 % interval from the pilot's spread; seconds of wall time per question.
     * {@code computedPromptTokens}: of the prompt tokens sent, those the server would compute, at the share its prefix
     * cache held in the pilot; null when the pilot's server reported no cached tokens (then only the server knows).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Pilot(int n, double calls, double promptTokens, double completionTokens, Range promptInterval, double secondsPerQuestion,
                        Double dollars, Double computedPromptTokens) { }

    /** The sizes of {@code q} as calls of {@code method} under {@code config} can carry it; {@code family} from --image-tokens (may be null). */
    public static QuestionSize size(Question q, String methods, Config config, String family) {
        return size(q, q.images().stream().map(p -> new ImageLoader.Header(null, p.width(), p.height())).toList(), methods, config, family);
    }

    /**
     * The same from the question's text ({@code q}; its images are not looked at) and its images' sizes, read from their
     * headers ({@link dev.gamagent.eval.load.EvalQuestion#imageSizes}): nothing is decoded.
     */
    public static QuestionSize size(Question q, List<ImageLoader.Header> images, String methods, Config config, String family) {
        TokenEstimator text = new TokenEstimator(family);
        StringBuilder t = new StringBuilder(q.text() == null ? "" : q.text());
        if (q.hint() != null) t.append('\n').append(q.hint());
        if (q.options() != null) q.options().forEach((k, v) -> t.append('\n').append(k).append(". ").append(v));
        double scale = 1.0;
        if (methods.contains("dream+")) {
            for (JsonNode s : config.node("dream.scales")) scale = Math.max(scale, s.asDouble(1.0));
        }
        long img = 0;
        for (ImageLoader.Header p : images) {
            int w = (int) Math.ceil(p.width() * scale), h = (int) Math.ceil(p.height() * scale);
            long most = 0;
            List<String> fams = new ArrayList<>(FAMILIES);
            if (family != null) fams.add(family);
            for (String f : fams) most = Math.max(most, ImageTokens.estimate(f, w, h));
            img += most;
        }
        return new QuestionSize(text.text(t.toString()), img);
    }

    /** The largest {@code max_tokens} a method's calls may ask for (every {@code *max_tokens} of its sections). */
    public static long maxTokens(String method, Config config) {
        String m = method.strip().toLowerCase(Locale.ROOT);
        List<String> sections = new ArrayList<>();
        if (m.startsWith("dream+")) {
            sections.add("dream");
            m = m.substring("dream+".length());
        }
        sections.add(switch (m) {
            case "self-debate" -> "self_debate";
            case "div-mad" -> "mad";
            default -> m;
        });
        long most = 0;
        for (String s : sections) {
            JsonNode n = config.node(s);
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                var e = it.next();
                if (e.getKey().endsWith("max_tokens") && e.getValue().isNumber()) most = Math.max(most, e.getValue().asLong());
            }
        }
        return most > 0 ? most : 1024;
    }

    /** The estimate for {@code method} over {@code questions}; {@code price} null when the model has none. */
    public static MethodEstimate of(String method, Config config, List<QuestionSize> questions, PriceTable.Price price) {
        ProtocolCalls.Range c = ProtocolCalls.of(method, config);
        long maxTok = maxTokens(method, config);
        Range prompt = new Range(0, 0), completion = new Range(0, 0);
        for (QuestionSize q : questions) {
            double history = (double) maxTok * c.max() * (c.max() - 1) / 2.0;
            prompt = prompt.plus(new Range((double) c.min() * q.textTokens(),
                    (double) c.max() * (q.textTokens() + q.imageTokens() + TEMPLATE_ALLOWANCE) + history));
            completion = completion.plus(new Range(c.min(), (double) c.max() * maxTok));
        }
        int n = questions.size();
        Range dollars = price == null ? null
                : new Range(dollars(price, prompt.low(), completion.low()), dollars(price, prompt.high(), completion.high()));
        return new MethodEstimate(method, n, c, c.how(), new Range(c.min() * (double) n, c.max() * (double) n), prompt, completion, dollars, null);
    }

    /**
     * {@code e} narrowed by the pilot's {@code records} of its method; {@code all} are the sizes of every question the
     * full run will answer, {@code byId} the same by question id (a record's question).
     */
    public static MethodEstimate withPilot(MethodEstimate e, List<QuestionSize> all, Map<String, QuestionSize> byId, List<ResultRecord> records,
                                           PriceTable.Price price) {
        List<ResultRecord> ok = records.stream().filter(r -> !r.isError()).toList();
        if (ok.isEmpty()) return e;
        int n = ok.size();
        double calls = 0, completion = 0, prompt = 0, seconds = 0, sizePilot = 0, cached = 0;
        boolean sized = true, cacheReported = false;
        for (ResultRecord r : ok) {
            if (r.cost().cachedPromptTokens() != null) {
                cacheReported = true;
                cached += r.cost().cachedPromptTokens();
            }
            calls += r.cost().calls();
            completion += r.cost().completionTokens();
            prompt += r.cost().promptTokens();
            seconds += r.cost().millis() / 1000.0;
            QuestionSize q = byId.get(r.question().id());
            if (q == null) sized = false;
            else sizePilot += weight(q);
        }
        double sizeAll = 0;
        for (QuestionSize q : all) sizeAll += weight(q);
        double promptTotal, sd = 0;
        if (sized && sizePilot > 0) {
            // prompt tokens follow the questions' sizes (the image dominates): the pilot's tokens per unit of size × every question's size
            double perSize = prompt / sizePilot;
            promptTotal = perSize * sizeAll;
            double ss = 0;
            for (ResultRecord r : ok) {
                double d = r.cost().promptTokens() - perSize * weight(byId.get(r.question().id()));
                ss += d * d;
            }
            if (n > 1) sd = Math.sqrt(ss / (n - 1));
        } else {
            promptTotal = prompt / n * e.questions();
            double mean = prompt / n, ss = 0;
            for (ResultRecord r : ok) ss += (r.cost().promptTokens() - mean) * (r.cost().promptTokens() - mean);
            if (n > 1) sd = Math.sqrt(ss / (n - 1));
        }
        double half = 1.96 * sd / Math.sqrt(n) * e.questions();
        double callsTotal = calls / n * e.questions(), completionTotal = completion / n * e.questions();
        Range interval = new Range(Math.max(e.promptTokens().low(), promptTotal - half), Math.min(e.promptTokens().high(), promptTotal + half));
        Double d = price == null ? null : dollars(price, promptTotal, completionTotal);
        // the share the server's cache held in the pilot, measured by the server; a longer run may find its cache warmer
        Double computed = !cacheReported || prompt == 0 ? null : promptTotal * (1 - cached / prompt);
        return new MethodEstimate(e.method(), e.questions(), e.callsPerQuestion(), e.protocol(), e.calls(), e.promptTokens(), e.completionTokens(),
                e.dollars(), new Pilot(n, callsTotal, promptTotal, completionTotal, interval, seconds / n, d, computed));
    }

    private static double weight(QuestionSize q) { return q.textTokens() + q.imageTokens() + TEMPLATE_ALLOWANCE; }

    static double dollars(PriceTable.Price p, double prompt, double completion) {
        return (prompt * p.input() + completion * p.output()) / 1e6;
    }
}
