package dev.gamagent.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A visual question's text as benchmark harnesses and people write it into a prompt, read back into what the question
 * is: its text, its hint, its options, and apart from them the sentences that tell a model how to answer. The one reader
 * of that plain format, for {@code gam serve} (a harness's request) and the built-in model (the methods' prompts, which
 * embed {@link dev.gamagent.api.Question#render}).
 * <p>
 * It reads what the harnesses' prompt builders write (docs/SERVER.md, "How a question is read"): VLMEvalKit's
 * {@code ImageMCQDataset.build_prompt} ("Hint: …", "Question: …", "Options:", one "A. …" per line, then "Please select
 * the correct answer from the options above."), lmms-eval's {@code doc_to_text} ("{hint} {question} There are several
 * options:", the options, then "Answer with the option's letter from the given choices directly."), the OpenAI
 * cookbook's bare question, and a person's one line ("What colour? A. red B. blue"). So:
 * <ul>
 *   <li>labels ("Question:", "Hint:", "Context:", "Options:", "Choices:") name their part and are not text; a trailing
 *       "There are several options:" or "Answer:" is a label too;</li>
 *   <li>options are "A. text", "A) text", "(A) text" or "A: text", one per line (a line that is neither an option, an
 *       instruction nor a question continues the option before it, as multi-line code options do) or several on one
 *       line, lettered from A without a gap; a lone "A. …" is ordinary text;</li>
 *   <li>an instruction — a sentence about the form of the answer ({@link #instruction}) — is set apart wherever it
 *       stands: before or after the options, on its own line or after the question on the same line;</li>
 *   <li>a question whose every sentence reads as an instruction keeps them (nothing else could be the question).</li>
 * </ul>
 */
public final class QuestionText {
    /**
     * What a prompt's text holds.
     *
     * @param question     the question, labels and instructions removed (may be empty when the text had none)
     * @param hint         the hint ("Hint:" or "Context:" lines), or null
     * @param options      letter → option text, in order; empty for an open question
     * @param instructions the sentences about how to answer and the labels that were set apart, in order
     */
    public record Read(String question, String hint, Map<String, String> options, List<String> instructions) {
        public Read {
            options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
            instructions = List.copyOf(instructions);
        }
    }

    /** An option line: "A. text", "A) text", "A: text" (also full-width "．" and "："), "(A) text". */
    private static final Pattern OPTION_LINE = Pattern.compile("^\\s*(?:\\(([A-Z])\\)\\s*|([A-Z])[.．):：]\\s+)(\\S.*?)\\s*$");
    /** A label at the start of a line, and what follows it. */
    private static final Pattern LABEL = Pattern.compile("(?i)^\\s*(question|q|hint|context|options|choices)\\s*[:：]\\s*(.*)$");
    /** A sentence that is only a label ("Answer:", "There are several options:", "The best answer is:"). */
    private static final Pattern LABEL_SENTENCE = Pattern.compile("(?i)^(?:options?|choices?|answers?|question|hint|context|assistant"
            + "|(?:the )?(?:(?:best|correct|right|final) )?answer is|there (?:are|is) (?:several|some|the following|\\w+) (?:options|choices))"
            + "\\s*[:：]?\\s*$");
    /** The same labels ending a line after the question ("What is it? There are several options:"). */
    private static final Pattern TRAILING_LABEL = Pattern.compile("(?i)\\s*(?:there (?:are|is) (?:several|some|the following|\\w+) "
            + "(?:options|choices)|options|choices|(?:the )?(?:(?:best|correct|right|final) )?answer(?: is)?)\\s*[:：]\\s*$");
    /** Values a harness writes for an empty hint or context. */
    private static final Set<String> EMPTY_HINTS = Set.of("", "n/a", "na", "none", "nan", "null");

    private QuestionText() { }

    /** Reads {@code text} (null reads as empty). */
    public static Read read(String text) {
        List<String> lines = List.of((text == null ? "" : text).split("\\R", -1));
        boolean labelledQuestion = false;
        for (String l : lines) {
            Matcher m = LABEL.matcher(l);
            if (m.matches() && (m.group(1).equalsIgnoreCase("question") || m.group(1).equalsIgnoreCase("q"))) labelledQuestion = true;
        }
        boolean perLine = optionLines(lines) >= 2;
        Reading r = new Reading();
        boolean hintOpen = false; // a hint runs over several lines only up to a "Question:" label
        for (String raw : lines) {
            String line = raw.strip();
            boolean optionsLabel = false;
            Matcher label = LABEL.matcher(line);
            if (r.formatBlock) {
                // after an instruction that followed the options, every line is part of the reply's format
                if (!line.isEmpty()) r.instructions.add(line);
                continue;
            }
            if (label.matches()) {
                String name = label.group(1).toLowerCase(Locale.ROOT), rest = label.group(2).strip();
                if (name.equals("hint") || name.equals("context")) {
                    if (!EMPTY_HINTS.contains(rest.toLowerCase(Locale.ROOT))) r.hint(rest);
                    hintOpen = labelledQuestion && !r.seenQuestionLabel;
                    r.closeOption();
                    continue;
                }
                hintOpen = false;
                if (name.equals("question") || name.equals("q")) r.seenQuestionLabel = true;
                optionsLabel = name.equals("options") || name.equals("choices");
                r.instructions.add(line.substring(0, line.length() - label.group(2).length()).strip());
                line = rest;
                raw = rest;
                if (line.isEmpty()) continue;
            }
            if (hintOpen) {
                r.hint(line);
                continue;
            }
            if (line.isEmpty()) {
                r.blank(raw);
                continue;
            }
            if (perLine) {
                Matcher om = OPTION_LINE.matcher(line);
                if (om.matches() && letter(om) == (char) ('A' + r.options.size())) {
                    r.option(String.valueOf(letter(om)), om.group(3));
                    continue;
                }
            } else if (r.options.isEmpty() && r.inline(line, optionsLabel)) {
                continue;
            }
            r.content(raw, line);
        }
        return r.finish();
    }

    /**
     * {@code text} without its instructions and labels, line by line (a system message as context: "You are a helpful
     * assistant." goes, "The chart shows 2023's sales." stays); null when nothing is left.
     */
    public static String withoutInstructions(String text) {
        List<String> out = new ArrayList<>();
        for (String line : (text == null ? "" : text).split("\\R")) {
            List<String> kept = new ArrayList<>(), dropped = new ArrayList<>();
            split(line.strip(), kept, dropped);
            if (!kept.isEmpty()) out.add(dropped.isEmpty() ? line.strip() : String.join(" ", kept));
        }
        String s = String.join("\n", out).strip();
        return s.isEmpty() ? null : s;
    }

    /**
     * Whether {@code sentence} tells a model how to answer rather than asking something: it names the answer's form
     * ("the option's letter", "from the given choices", "the options above", "a single word or phrase", "step by step"),
     * addresses the answerer ("You are …", "Your answer must …", "Keep your answer …"), or is an imperative to answer,
     * respond or reply — or to select, choose, give or provide an answer, option, letter or phrase ("Please select the
     * correct answer from the options above."). A sentence that ends with a question mark is a question, never an
     * instruction; "Select the organism in the same genus", "Identify the emotion" and "Choose the word on the sign" ask.
     */
    public static boolean instruction(String sentence) {
        String s = sentence == null ? "" : sentence.strip();
        if (s.isEmpty() || s.endsWith("?") || s.endsWith("？")) return false;
        if (cjkInstruction(s)) return true;
        s = s.toLowerCase(Locale.ROOT).replaceAll("[\u2018\u2019]", "'").replaceAll("\\s+", " ").replaceAll("^[\"'`*(\\[]+", "");
        if (FORM_NAMED.matcher(s).find()) return true;
        s = LEADING_CLAUSE.matcher(s).replaceFirst("");
        s = POLITE.matcher(s).replaceFirst("");
        if (ADDRESSED.matcher(s).find()) return true;
        Matcher v = VERB.matcher(s);
        if (!v.find()) return false;
        String verb = v.group(1);
        if (ALWAYS.contains(verb)) return true;
        if (verb.equals("answer")) return ANSWER_HOW.matcher(s).find();
        return FORM.matcher(s).find();
    }

    /** Phrases that only name the form of an answer. */
    private static final Pattern FORM_NAMED = Pattern.compile("option'?s letter|options? letters?|letter of the (?:correct|right|best|chosen) "
            + "(?:option|answer|choice)|(?:from|among|of) the (?:given|above|following|provided) (?:choices|options)|(?:choices|options) "
            + "(?:above|below|given)|(?:choices|options) are (?:given|listed|shown)|single (?:word|letter|integer|number) or phrase|"
            + "single word or (?:a )?phrase|step[- ]by[- ]step");
    /** A clause before the imperative: "Based on the image, answer …", "When … is insufficient, respond …". */
    private static final Pattern LEADING_CLAUSE = Pattern.compile("^(?:based on|according to|when|if|given|using|after|from|for this question)"
            + "[^,]{0,100},\\s*");
    private static final Pattern POLITE = Pattern.compile("^(?:(?:first|now|then|finally|also|lastly)[,]?\\s+)?(?:please[,]?\\s+|kindly\\s+)?"
            + "(?:(?:first|now|then|finally|also|lastly)[,]?\\s+)?");
    /** Sentences about the answerer or its answer: a persona, or a rule for the reply. */
    private static final Pattern ADDRESSED = Pattern.compile("^(?:(?:you are|you're) (?:a|an) |act as|as an ai|your (?:task|job|goal) is|"
            + "(?:keep|make) your (?:answer|response|reply)|your (?:final )?(?:answer|response|reply|output) (?:must|should|has to|needs to|is to))");
    private static final Pattern VERB = Pattern.compile("^(?:only\\s+)?([a-z]+)\\b");
    /** Imperatives that are always about the reply. */
    private static final Set<String> ALWAYS = Set.of("respond", "reply", "enclose");
    /** "Answer with …", "Answer the question …", "Answer directly …" — not "Answer: B" (a label) nor a noun. */
    private static final Pattern ANSWER_HOW = Pattern.compile("^(?:only\\s+)?answer\\s+(?:with|the|using|in|directly|only|this|these|each|"
            + "according|based|briefly|concisely|by|as|within|from|it|shortly|following|all|below|above|questions?|carefully|truthfully|"
            + "correctly|exactly|yes|a|an|one|just)\\b");
    /** What an imperative such as "select", "give" or "provide" must name to be about the reply. */
    private static final Pattern FORM = Pattern.compile("^(?:only\\s+)?(?:select|choose|pick|give|provide|write|put|state|use|output|return"
            + "|think|make|mark|circle|type|print|indicate)\\b.*\\b(?:letters?|options?|choices?|answers?|phrase|format|response|reply|"
            + "directly|concise(?:ly)?|short(?:ly)?|brief(?:ly)?|explanations?)\\b");

    /** Chinese instructions: the option letter ("选项字母", "选项的字母") or an answer asked for ("请直接回答", "选择…最佳答案"). */
    private static boolean cjkInstruction(String s) {
        if (s.contains("字母") && (s.contains("选项") || s.contains("答案") || s.contains("回答"))) return true;
        return (s.startsWith("请") || s.startsWith("根据")) && (s.contains("答案") || s.contains("作答") || s.contains("直接回答"));
    }

    /** The sentences of one line: split after . ! ? 。 ！ ？ before the next sentence, not after abbreviations or initials. */
    static List<String> sentences(String line) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            int end = i + 1;
            if (c == '。' || c == '！' || c == '？') {
                while (end < line.length() && "”’」』)）".indexOf(line.charAt(end)) >= 0) end++;
            } else if (c == '.' || c == '!' || c == '?') {
                while (end < line.length() && "\"'”’)]".indexOf(line.charAt(end)) >= 0) end++;
                if (end >= line.length() || !Character.isWhitespace(line.charAt(end))) continue;
                int next = end;
                while (next < line.length() && Character.isWhitespace(line.charAt(next))) next++;
                if (next >= line.length()) continue;
                char n = line.charAt(next);
                if (!(Character.isUpperCase(n) || Character.isDigit(n) || "\"'“‘(".indexOf(n) >= 0 || Character.isIdeographic(n))) continue;
                if (c == '.' && abbreviation(line, i)) continue;
            } else {
                continue;
            }
            out.add(line.substring(start, end).strip());
            start = end;
            i = end - 1;
        }
        String rest = line.substring(start).strip();
        if (!rest.isEmpty()) out.add(rest);
        return out;
    }

    private static final Set<String> ABBREVIATIONS = Set.of("e.g", "i.e", "etc", "vs", "mr", "mrs", "ms", "dr", "st", "no", "fig", "approx",
            "u.s", "jr", "sr", "mt", "ft", "cf");

    /** Whether the period at {@code dot} ends an abbreviation ("e.g.", "St.") or an initial ("J."), not a sentence. */
    private static boolean abbreviation(String line, int dot) {
        int b = dot;
        while (b > 0 && (Character.isLetter(line.charAt(b - 1)) || line.charAt(b - 1) == '.')) b--;
        String word = line.substring(b, dot);
        if (word.length() == 1 && Character.isUpperCase(word.charAt(0))) return true;
        return ABBREVIATIONS.contains(word.toLowerCase(Locale.ROOT));
    }

    /** How many lines are options lettered from A without a gap (two or more: the text lists its options one per line). */
    private static int optionLines(List<String> lines) {
        int n = 0;
        for (String l : lines) {
            Matcher label = LABEL.matcher(l);
            String line = label.matches() && label.group(1).toLowerCase(Locale.ROOT).matches("options|choices") ? label.group(2) : l;
            Matcher om = OPTION_LINE.matcher(line);
            if (om.matches() && letter(om) == (char) ('A' + n)) n++;
        }
        return n;
    }

    private static char letter(Matcher om) { return (om.group(1) != null ? om.group(1) : om.group(2)).charAt(0); }

    /** The reading in progress. */
    private static final class Reading {
        final List<String> question = new ArrayList<>();
        final List<String> hint = new ArrayList<>();
        final Map<String, String> options = new LinkedHashMap<>();
        final List<String> instructions = new ArrayList<>();
        /** Instruction sentences taken from question lines: kept when nothing else would be the question. */
        final List<String> fromQuestion = new ArrayList<>();
        /** The option later lines continue (null once a question line or a hint came after it). */
        StringBuilder open;
        String openLetter;
        boolean seenQuestionLabel;
        /**
         * An instruction came after the options ("Reply in this format:", "Please select …"): what follows is the reply's
         * format ("ANSWER: <letter>", "CONFIDENCE: <0..1>"), neither a continuation of the last option nor the question.
         */
        boolean formatBlock;

        /** A hint's line, without the instructions a harness may put there ("Hint: Please answer … the option letter"). */
        void hint(String s) {
            List<String> kept = new ArrayList<>(), dropped = new ArrayList<>();
            split(s.strip(), kept, dropped);
            instructions.addAll(dropped);
            if (!kept.isEmpty()) hint.add(dropped.isEmpty() ? s.strip() : String.join(" ", kept));
        }

        void option(String letter, String text) {
            closeOption();
            openLetter = letter;
            open = new StringBuilder(text);
            options.put(letter, text);
        }

        void closeOption() {
            if (open != null) options.put(openLetter, open.toString().strip());
            open = null;
            openLetter = null;
        }

        /** A blank line inside an option (code) is kept as it came. */
        void blank(String raw) { if (open != null) open.append('\n').append(raw); }

        /** A line that is neither a label, a hint nor an option line. */
        void content(String raw, String line) {
            if (formatBlock) {
                instructions.add(line);
                return;
            }
            List<String> kept = new ArrayList<>(), dropped = new ArrayList<>();
            split(line, kept, dropped);
            if (kept.isEmpty() && !dropped.isEmpty() && !options.isEmpty()) {
                // a line that only instructs, after the options: it and everything after it are about the reply's form
                closeOption();
                instructions.addAll(dropped);
                formatBlock = true;
                return;
            }
            if (open != null && !kept.isEmpty() && !endsAsQuestion(kept)) {
                // a line after an option that asks nothing continues it (multi-line options: code, poems, addresses)
                instructions.addAll(dropped);
                open.append('\n').append(dropped.isEmpty() ? raw : String.join(" ", kept));
                return;
            }
            instructions.addAll(dropped);
            if (kept.isEmpty()) {
                if (open == null && options.isEmpty()) fromQuestion.addAll(dropped);
                return;
            }
            closeOption();
            question.add(dropped.isEmpty() ? line : String.join(" ", kept));
        }

        /**
         * Several options on one line ("What colour? A. red B. blue", "(A) 3 (B) 4"): true when the line held them.
         * "A: text" markers count only after an options label ("Options: A: red, B: blue"), since prose writes "angle A: 30°".
         */
        boolean inline(String line, boolean optionsLabel) {
            List<int[]> run = inlineRun(line, false);
            String before = run.size() < 2 ? "" : line.substring(0, run.get(0)[0]).strip();
            Matcher label = TRAILING_LABEL.matcher(before);
            boolean labelled = optionsLabel || label.find() && label.group().toLowerCase(Locale.ROOT).matches(".*(options|choices).*");
            if (run.size() < 2) {
                run = inlineRun(line, true);
                if (run.size() < 2) return false;
                before = line.substring(0, run.get(0)[0]).strip();
                label = TRAILING_LABEL.matcher(before);
                labelled = optionsLabel || label.find() && label.group().toLowerCase(Locale.ROOT).matches(".*(options|choices).*");
                if (!labelled) return false;
            }
            if (label.reset().find()) {
                instructions.add(label.group().strip());
                before = before.substring(0, label.start()).strip();
            }
            if (!before.isEmpty()) content(before, before);
            for (int k = 0; k < run.size(); k++) {
                int from = run.get(k)[1], to = k + 1 < run.size() ? run.get(k + 1)[0] : line.length();
                String text = line.substring(from, to).strip().replaceAll("[,;，；、]+$", "").strip();
                if (k == run.size() - 1) {
                    // the last option runs to the end of the line, where an instruction may follow it
                    List<String> kept = new ArrayList<>(), dropped = new ArrayList<>();
                    split(text, kept, dropped);
                    if (!dropped.isEmpty() && !kept.isEmpty()) {
                        instructions.addAll(dropped);
                        text = String.join(" ", kept).replaceAll("[.,;，；、。]+$", "");
                    }
                }
                options.put(String.valueOf((char) ('A' + k)), text);
            }
            return true;
        }

        Read finish() {
            closeOption();
            if (options.size() == 1) { // a lone "A. ..." line is ordinary text, not a choice
                question.add("A. " + options.get("A"));
                options.clear();
            }
            String q = String.join("\n", question).strip();
            if (q.isEmpty() && !fromQuestion.isEmpty()) {
                // every sentence read as an instruction: then they are the question ("Choose the correct option.")
                q = String.join(" ", fromQuestion);
                instructions.removeAll(fromQuestion);
            }
            String h = String.join("\n", hint).strip();
            return new Read(q, h.isEmpty() ? null : h, options, instructions);
        }
    }

    /** A line's sentences, instructions and labels into {@code dropped}, the rest into {@code kept}. */
    private static void split(String line, List<String> kept, List<String> dropped) {
        String text = line;
        Matcher trailing = TRAILING_LABEL.matcher(text);
        String label = null;
        if (trailing.find() && trailing.start() > 0 && trailingLabel(text.substring(0, trailing.start()), trailing.group())) {
            label = trailing.group().strip();
            text = text.substring(0, trailing.start());
        }
        for (String s : sentences(text)) {
            if (LABEL_SENTENCE.matcher(s).matches() || instruction(s)) dropped.add(s);
            else kept.add(s);
        }
        if (label != null) dropped.add(label);
    }

    /**
     * Whether a label ending a line is one: "There are several options:", "Options:" anywhere; "Answer:" only after a
     * finished sentence ("What is it? Answer:"), since "What is the answer:" asks.
     */
    private static boolean trailingLabel(String before, String label) {
        if (label.toLowerCase(Locale.ROOT).matches(".*(options|choices).*")) return true;
        String b = before.strip();
        return b.isEmpty() || ".?!。？！:：".indexOf(b.charAt(b.length() - 1)) >= 0;
    }

    private static boolean endsAsQuestion(List<String> kept) {
        String last = kept.get(kept.size() - 1);
        return last.endsWith("?") || last.endsWith("？");
    }

    /**
     * The markers of options lettered A, B, C… on one line: each {start, end of the marker}. A marker is "A." or "A)"
     * (with {@code colons}, also "A:") followed by a space, or "(A)", at the line's start or after a space, colon or comma.
     */
    private static List<int[]> inlineRun(String line, boolean colons) {
        List<int[]> run = new ArrayList<>();
        char want = 'A';
        for (int i = 0; i < line.length(); i++) {
            if (i > 0 && !(Character.isWhitespace(line.charAt(i - 1)) || ":：,;，；".indexOf(line.charAt(i - 1)) >= 0)) continue;
            int end = -1;
            if (line.charAt(i) == '(' && i + 2 < line.length() && line.charAt(i + 1) == want && line.charAt(i + 2) == ')') end = i + 3;
            else if (line.charAt(i) == want && i + 2 < line.length() && (colons ? ".．):：" : ".．)").indexOf(line.charAt(i + 1)) >= 0
                    && Character.isWhitespace(line.charAt(i + 2))) end = i + 2;
            if (end < 0) continue;
            run.add(new int[]{i, end});
            want++;
            i = end - 1;
        }
        return run;
    }
}
