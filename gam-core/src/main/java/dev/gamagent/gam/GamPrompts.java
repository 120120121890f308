package dev.gamagent.gam;

import dev.gamagent.engine.Role;
import dev.gamagent.api.Question;
import dev.gamagent.api.Trace;
import dev.gamagent.engine.Prompts;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders the GAM prompts from the overridable templates {@code gam_*} (docs/CONTRACTS.md §1): the
 * {@code <question>}, {@code <role>} and {@code <task>} lines, {@code <previous>}, {@code <peer>},
 * {@code <critique>}, {@code <consensus>} and {@code <claims>} blocks, and the requested format last.
 */
final class GamPrompts {
    private final Prompts prompts;
    private final Question question;
    private final String note;
    private final dev.gamagent.engine.RequestLayout layout;

    /** @param layout where each prompt puts its {@code <question>} block (its text as sent) */
    GamPrompts(Prompts prompts, Question question, String note, dev.gamagent.engine.RequestLayout layout) {
        this.prompts = prompts;
        this.question = question;
        this.layout = layout;
        String frames = framesSentence(question.images().stream().map(dev.gamagent.image.Picture::source).toList());
        this.note = (frames + " " + (note == null ? "" : note)).strip();
    }

    /**
     * What a request of several images tells every agent (GAM on frames, docs/video.md): the images are frames 1..N in
     * time order, and a claim names the frame it is about, its region on that frame. "" for one image (or none).
     */
    static String framesSentence(List<String> names) {
        int images = names.size();
        if (images < 2) return "";
        StringBuilder times = new StringBuilder();
        for (int i = 0; i < images; i++) {
            java.util.regex.Matcher m = TIME.matcher(names.get(i));
            if (!m.find()) {
                times.setLength(0);
                break;
            }
            times.append(i == 0 ? " Their times: frame 1 at " : ", frame " + (i + 1) + " at ").append(m.group(1)).append(" s");
        }
        if (times.length() > 0) times.append('.');
        return "The question's " + images + " images are frames 1.." + images + ", in time order (a video's frames; "
                + "otherwise " + images + " images in the order given)." + times + " Each claim about what one frame shows names "
                + "that frame (FRAME: k, k from 1 to " + images + "), and its region is in 0..1 of that frame.";
    }

    /** A frame's time in its name, as video decoding writes it ({@code clip.mp4#frame-45@1.5s}). */
    private static final java.util.regex.Pattern TIME = java.util.regex.Pattern.compile("#frame-\\d+@(\\d+(?:\\.\\d+)?)s$");

    /** Whether claims name their frame: the request has several images. */
    boolean framed() { return question.images().size() > 1; }

    /** The structured-output schema of an expert's reply: claims name their frame when the request has several images. */
    com.fasterxml.jackson.databind.JsonNode expertSchema() { return framed() ? ResponseSchemas.EXPERT_FRAMES : ResponseSchemas.EXPERT; }

    /** A peer's answer as shown to others. */
    record Peer(String id, double weight, String text) { }

    /** A disputed claim as shown to critics (numbered 1.. in the block). */
    record Disputed(String expert, Trace.Claim claim) { }

    /** A critique as shown to experts when they revise. */
    record Shown(String critic, String expert, String claimText, Assessment assessment) { }

    String answer(Role role, boolean json) {
        Map<String, Object> v = base(role);
        v.put("format", format("answer", json));
        return layout.text(prompts.render("gam_answer", v));
    }

    String revise(Role role, String previous, List<Peer> peers, List<Shown> critiques, boolean json) {
        Map<String, Object> v = base(role);
        v.put("previous", previous == null || previous.isBlank() ? "(you gave no answer in the previous round)" : previous.strip());
        v.put("peers", peers(peers));
        StringBuilder cb = new StringBuilder();
        for (Shown s : critiques) {
            Assessment a = s.assessment();
            cb.append("<critique critic=\"").append(s.critic()).append("\">");
            cb.append(a.claim() == 0 ? "ALL CLAIMS" : "CLAIM by " + s.expert() + ": " + s.claimText());
            cb.append(" | ").append(a.assessment().toUpperCase(Locale.ROOT));
            if (a.reason() != null) cb.append(" | REASON: ").append(a.reason());
            if (a.correction() != null) cb.append(" | CORRECTION: ").append(a.correction());
            cb.append(" | CONFIDENCE: ").append(num(a.confidence())).append("</critique>\n");
        }
        v.put("critiques", cb.toString().strip());
        v.put("format", format("answer", json));
        return layout.text(prompts.render("gam_revise", v));
    }

    String critique(Role role, String consensus, List<Disputed> claims, String zoom, boolean json) {
        Map<String, Object> v = base(role);
        v.put("consensus", consensus);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < claims.size(); i++) {
            Trace.Claim c = claims.get(i).claim();
            sb.append("CLAIM ").append(i + 1).append(" [expert=").append(claims.get(i).expert())
                    .append(", confidence=").append(num(c.confidence()));
            if (c.frame() != null) sb.append(", frame=").append(c.frame());
            if (c.region() != null) {
                sb.append(", region=").append(num(c.region().x0())).append(',').append(num(c.region().y0())).append(',')
                        .append(num(c.region().x1())).append(',').append(num(c.region().y1()));
            }
            sb.append("]: ").append(c.text().replace('\n', ' '));
            if (c.evidence() != null) sb.append(" | EVIDENCE: ").append(c.evidence().replace('\n', ' '));
            sb.append('\n');
        }
        v.put("claims", sb.toString().strip());
        v.put("zoom", zoom == null ? "" : zoom);
        v.put("format", prompts.render(json ? "gam_format_critique_json" : "gam_format_critique_lines", Map.of()));
        return layout.text(prompts.render("gam_critique", v));
    }

    String judge(List<Peer> peers) {
        Map<String, Object> v = new HashMap<>();
        v.put("question", question.render());
        v.put("peers", peers(peers));
        v.put("note", note);
        return layout.text(prompts.render("gam_judge", v));
    }

    private Map<String, Object> base(Role role) {
        Map<String, Object> v = new HashMap<>();
        v.put("role", role.label());
        v.put("focus", prompts.render(role.template(), Map.of()));
        v.put("question", question.render());
        v.put("note", note);
        return v;
    }

    private String format(String what, boolean json) {
        String kind = question.isMultipleChoice() ? "the option letter" : "a single word or phrase";
        int n = question.images().size();
        String frame = !framed() ? "" : json ? ", \"frame\": 1.." + n : " | FRAME: <1.." + n + ">";
        return prompts.render("gam_format_" + what + (json ? "_json" : "_lines"),
                Map.of("answer_kind", json ? "\"<" + kind + ">\"" : "<" + kind + ">", "frame_field", frame));
    }

    private static String peers(List<Peer> peers) {
        StringBuilder sb = new StringBuilder();
        for (Peer p : peers) {
            sb.append("<peer id=\"").append(p.id()).append("\" weight=\"").append(num(p.weight())).append("\">\n")
                    .append(p.text().strip()).append("\n</peer>\n");
        }
        return sb.toString().strip();
    }

    static String num(double v) { return String.format(Locale.ROOT, "%.2f", v); }
}
