package dev.gamagent.local;

import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.engine.QuestionText;
import dev.gamagent.image.Picture;
import dev.gamagent.image.Region;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a chat request the way the local model understands it: the tagged blocks of docs/CONTRACTS.md
 * §1 when present, otherwise a plain prompt as the harnesses write one (VLMEvalKit's, lmms-eval's); the question inside
 * either is read by {@link QuestionText}, so instruction lines, labels and inline options read as a VLM would read them. Only the system messages and the last user message are read (with the
 * images of the latest user message that has any: a conversation may send them once, in its first turn), and of a
 * conversation's earlier turns the last assistant message, as the agent's previous answer when no
 * {@code <previous>} block gives one, and when the last user message has no {@code <question>} block the role and
 * question of the first user message that has one (a conversation's later turn says only what is new).
 */
public final class PromptReader {
    private static final int FLAGS = Pattern.DOTALL | Pattern.CASE_INSENSITIVE;
    private static final Pattern QUESTION = Pattern.compile("<question>(.*?)</question>", FLAGS);
    private static final Pattern ROLE = Pattern.compile("<role>(.*?)</role>", FLAGS);
    private static final Pattern TASK = Pattern.compile("<task>\\s*([a-z]+)\\s*</task>", FLAGS);
    private static final Pattern PEER = Pattern.compile("<peer\\b([^>]*)>(.*?)</peer>", FLAGS);
    private static final Pattern CRITIQUE = Pattern.compile("<critique\\b([^>]*)>(.*?)</critique>", FLAGS);
    private static final Pattern PREVIOUS = Pattern.compile("<previous>(.*?)</previous>", FLAGS);
    private static final Pattern CLAIMS = Pattern.compile("<claims>(.*?)</claims>", FLAGS);
    private static final Pattern CONSENSUS = Pattern.compile("<consensus>(.*?)</consensus>", FLAGS);
    private static final Pattern ANY_BLOCK = Pattern.compile(
            "<(question|peer|critique|previous|claims|consensus|system)\\b[^>]*>.*?</\\1>", FLAGS);
    private static final Pattern CLAIM_LINE = Pattern.compile(
            "^\\s*CLAIM\\s+(\\d+)\\s*(?:\\[([^\\]]*)])?\\s*:\\s*(.*)$", Pattern.CASE_INSENSITIVE);
    private static final Pattern ATTR = Pattern.compile("([a-z_]+)\\s*=\\s*\"([^\"]*)\"", Pattern.CASE_INSENSITIVE);
    private static final Pattern NUM = Pattern.compile("-?\\d+(?:\\.\\d+)?");
    private static final Pattern LINE_FORMAT = Pattern.compile("(?m)^\\s*(ANSWER|CLAIM\\s*\\d*|CLAIM n)\\s*:", Pattern.CASE_INSENSITIVE);
    private static final Pattern JSON_FORMAT = Pattern.compile("(?i)reply with (?:one|a) JSON object|respond in JSON|answer in JSON");
    private static final Pattern CLAIM_FORMAT = Pattern.compile("(?im)^\\s*CLAIM\\s*(?:\\d+|n)?\\s*:|\"claims\"");
    private static final Pattern CONFIDENCE_FORMAT = Pattern.compile("(?im)^\\s*CONFIDENCE\\s*:|\"confidence\"");
    private static final Pattern CLAIM_TAIL = Pattern.compile("\\s*\\|\\s*(?:EVIDENCE|CONFIDENCE|REGION)\\s*:.*$", Pattern.CASE_INSENSITIVE);
    private static final Pattern LETTER_FORMAT = Pattern.compile("option'?s letter|letter from the given choices|answer with the letter", Pattern.CASE_INSENSITIVE);
    private static final Pattern TAG_LINE = Pattern.compile("(?m)^\\s*<.*$");

    private PromptReader() { }

    public static ParsedPrompt read(ChatRequest request) {
        StringBuilder sb = new StringBuilder();
        List<Picture> images = List.of();
        ChatMessage lastUser = null;
        for (ChatMessage m : request.messages()) if (m.role() == ChatMessage.Role.USER) lastUser = m;
        for (ChatMessage m : request.messages()) {
            if (m.role() == ChatMessage.Role.SYSTEM || m == lastUser) {
                if (sb.length() > 0) sb.append('\n');
                // A system message (a persona, a debater's standing instructions) says who the model is and how to reply,
                // never what is asked: it is read for the role and the format, not as lines of the question.
                sb.append(m.role() == ChatMessage.Role.SYSTEM ? "<system>" + m.text() + "</system>" : m.text());
            }
        }
        // A conversation's later turn (requests.rounds = conversation) says only what is new: who the agent is and the
        // question are in the turn that first asked it, read from there.
        if (lastUser != null && !QUESTION.matcher(lastUser.text()).find()) {
            for (ChatMessage m : request.messages()) {
                if (m == lastUser) break;
                if (m.role() != ChatMessage.Role.USER) continue;
                Matcher asked = QUESTION.matcher(m.text());
                if (!asked.find()) continue;
                String role = first(ROLE, m.text());
                if (role != null) sb.append("\n<role>").append(role).append("</role>");
                sb.append('\n').append(asked.group());
                break;
            }
        }
        // the last user message's images, or a conversation's that sent them once in its first turn (RequestLayout)
        if (lastUser != null) images = dev.gamagent.engine.RequestLayout.askedImages(request.messages());
        ParsedPrompt p = read(sb.toString(), images, request.responseSchema() == null ? null : request.responseSchema().toString());
        // A conversation (mad) carries the agent's earlier turns as assistant messages: its last one is its previous answer.
        String earlier = null;
        for (ChatMessage m : request.messages()) {
            if (m == lastUser) break;
            if (m.role() == ChatMessage.Role.ASSISTANT && !m.text().isBlank()) earlier = m.text();
        }
        if (p.previous() != null || earlier == null) return p;
        return new ParsedPrompt(p.question(), p.hint(), p.options(), p.role(), p.task(), p.peers(), p.critiques(), earlier.strip(),
                p.claims(), p.consensus(), p.format(), p.claimsRequested(), p.confidenceRequested(), p.images());
    }

    /** Reads prompt text; {@code schemaText} is the request's JSON schema as text, or null when none came. */
    public static ParsedPrompt read(String text, List<Picture> images, String schemaText) {
        boolean schema = schemaText != null;
        if (schemaText == null) schemaText = "";
        Matcher qm = QUESTION.matcher(text);
        String outside = ANY_BLOCK.matcher(text).replaceAll("\n");
        boolean tagged = qm.find();
        // the question as harnesses and our templates write it (QuestionText: labels, hint, options, instructions set
        // apart); outside a <question> block, lines of other tags are not the question
        QuestionText.Read asked = QuestionText.read(tagged ? qm.group(1) : TAG_LINE.matcher(outside).replaceAll(""));
        String question = asked.question();
        String hint = asked.hint();
        Map<String, String> options = asked.options();

        String role = first(ROLE, text);
        role = role == null ? "assistant" : role.strip().toLowerCase(Locale.ROOT);
        String taskName = first(TASK, text);
        ParsedPrompt.Task task = ParsedPrompt.Task.ANSWER;
        if (taskName != null) {
            try {
                task = ParsedPrompt.Task.valueOf(taskName.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                task = ParsedPrompt.Task.ANSWER; // an unknown task word: answering is the honest default
            }
        }

        List<ParsedPrompt.Peer> peers = new ArrayList<>();
        Matcher pm = PEER.matcher(text);
        while (pm.find()) {
            Map<String, String> a = attrs(pm.group(1));
            peers.add(new ParsedPrompt.Peer(a.getOrDefault("id", "peer" + (peers.size() + 1)),
                    number(a.get("weight"), 1.0), pm.group(2).strip()));
        }
        List<ParsedPrompt.Critique> critiques = new ArrayList<>();
        Matcher cm = CRITIQUE.matcher(text);
        while (cm.find()) {
            Map<String, String> a = attrs(cm.group(1));
            critiques.add(new ParsedPrompt.Critique(a.getOrDefault("critic", "critic" + (critiques.size() + 1)), cm.group(2).strip()));
        }
        List<ParsedPrompt.ClaimRef> claims = new ArrayList<>();
        String claimBlock = first(CLAIMS, text);
        if (claimBlock != null) {
            for (String line : claimBlock.split("\\R")) {
                Matcher m = CLAIM_LINE.matcher(line);
                // The claim itself, without the " | EVIDENCE: ..." tail a controller may append.
                if (m.matches()) claims.add(claim(Integer.parseInt(m.group(1)), m.group(2), CLAIM_TAIL.matcher(m.group(3)).replaceFirst("").strip()));
            }
        }
        String previous = first(PREVIOUS, text);
        String consensus = first(CONSENSUS, text);

        ParsedPrompt.OutputFormat format;
        if (schema || JSON_FORMAT.matcher(outside).find()) format = ParsedPrompt.OutputFormat.JSON;
        else if (LINE_FORMAT.matcher(outside).find()) format = ParsedPrompt.OutputFormat.LINES;
        else if (LETTER_FORMAT.matcher(outside).find()) format = ParsedPrompt.OutputFormat.LETTER;
        else if (!options.isEmpty()) format = ParsedPrompt.OutputFormat.LETTER;
        else format = ParsedPrompt.OutputFormat.SHORT;

        boolean claimsRequested = CLAIM_FORMAT.matcher(outside).find()
                || (format == ParsedPrompt.OutputFormat.JSON && schema && !schemaText.contains("\"properties\""));
        if (format == ParsedPrompt.OutputFormat.JSON && schemaText.contains("\"claims\"")) claimsRequested = true;
        return new ParsedPrompt(question, hint, options, role, task, peers, critiques,
                previous == null ? null : previous.strip(), claims, consensus == null ? null : consensus.strip(), format,
                claimsRequested, CONFIDENCE_FORMAT.matcher(outside).find(), images);
    }

    private static ParsedPrompt.ClaimRef claim(int n, String attrs, String text) {
        String expert = null;
        double conf = Double.NaN;
        Region region = null;
        if (attrs != null) {
            Matcher e = Pattern.compile("expert\\s*=\\s*([^,\\]]+)").matcher(attrs);
            if (e.find()) expert = e.group(1).strip();
            Matcher c = Pattern.compile("confidence\\s*=\\s*([0-9.]+)").matcher(attrs);
            if (c.find()) conf = number(c.group(1), Double.NaN);
            Matcher r = Pattern.compile("region\\s*=\\s*(.*)$").matcher(attrs);
            if (r.find()) region = region(r.group(1));
        }
        return new ParsedPrompt.ClaimRef(n, expert, conf, region, text);
    }

    /** The first four numbers of {@code s} as a normalised region, or null. */
    static Region region(String s) {
        if (s == null) return null;
        Matcher m = NUM.matcher(s);
        double[] v = new double[4];
        int k = 0;
        while (k < 4 && m.find()) v[k++] = Double.parseDouble(m.group());
        if (k < 4) return null;
        Region r = new Region(v[0], v[1], v[2], v[3]);
        return r.isEmpty() ? null : r;
    }

    private static String first(Pattern p, String text) {
        Matcher m = p.matcher(text);
        return m.find() ? m.group(1) : null;
    }

    private static Map<String, String> attrs(String s) {
        Map<String, String> m = new LinkedHashMap<>();
        Matcher a = ATTR.matcher(s == null ? "" : s);
        while (a.find()) m.put(a.group(1).toLowerCase(Locale.ROOT), a.group(2));
        return m;
    }

    private static double number(String s, double fallback) {
        if (s == null) return fallback;
        try {
            return Double.parseDouble(s.strip());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
