package dev.gamagent.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How someone holding an output would try to read a key out of it, written apart from the scrubber so that tests of
 * the scrubber do not grade it by its own reading: the text as it is; unescaped (JSON, {@code \xNN}, HTML, URL, a few
 * times over) with all white space removed; every run of hex digits in that (separators and {@code 0x} removed) read
 * from its first and second digit; every run of base64 digits in it read from each of its first four.
 */
public final class KeyRecovery {
    private static final Pattern HEX_RUN = Pattern.compile("[0-9a-fA-F]{16,}");
    private static final Pattern BASE64_RUN = Pattern.compile("[A-Za-z0-9+/_-]{12,}");

    private KeyRecovery() { }

    /** Every reading of {@code text}, as Latin-1 strings for the decoded bytes. */
    public static List<String> readings(String text) {
        List<String> out = new ArrayList<>();
        out.add(text);
        String plain = text;
        for (int i = 0; i < 3; i++) plain = unescaped(plain);
        plain = plain.replaceAll("[\\s\\u00A0\\u200B-\\u200D\\uFEFF]+", "");
        out.add(plain);
        Matcher h = HEX_RUN.matcher(plain.replaceAll("0[xX]", "").replaceAll("[:,;._-]", ""));
        while (h.find()) {
            for (int phase = 0; phase < 2; phase++) {
                String run = h.group().substring(phase);
                byte[] b = new byte[run.length() / 2];
                for (int k = 0; k < b.length; k++) b[k] = (byte) Integer.parseInt(run.substring(2 * k, 2 * k + 2), 16);
                out.add(new String(b, StandardCharsets.ISO_8859_1));
            }
        }
        Matcher b64 = BASE64_RUN.matcher(plain);
        while (b64.find()) {
            String run = b64.group().replace('-', '+').replace('_', '/');
            for (int phase = 0; phase < 4; phase++) {
                String part = run.substring(phase);
                part = part.substring(0, part.length() - part.length() % 4);
                out.add(new String(Base64.getDecoder().decode(part), StandardCharsets.ISO_8859_1));
            }
        }
        return out;
    }

    /** Whether some reading of {@code text} holds {@code length} consecutive characters of {@code secret}. */
    public static boolean holdsRun(String text, String secret, int length) {
        List<String> readings = readings(text);
        for (int i = 0; i + length <= secret.length(); i++) {
            String run = secret.substring(i, i + length);
            for (String r : readings) if (r.contains(run)) return true;
        }
        return false;
    }

    private static String unescaped(String s) {
        s = replace(s, "\\\\+u([0-9a-fA-F]{4})", m -> String.valueOf((char) Integer.parseInt(m.group(1), 16)));
        s = replace(s, "\\\\+x([0-9a-fA-F]{2})", m -> String.valueOf((char) Integer.parseInt(m.group(1), 16)));
        s = s.replaceAll("\\\\+[nrt]", " ").replaceAll("\\\\+([^0-9A-Za-z])", "$1");
        s = replace(s, "&#[xX]([0-9a-fA-F]+);", m -> new String(Character.toChars(Integer.parseInt(m.group(1), 16))));
        s = replace(s, "&#([0-9]+);", m -> new String(Character.toChars(Integer.parseInt(m.group(1)))));
        s = s.replace("&sol;", "/").replace("&equals;", "=").replace("&plus;", "+").replace("&colon;", ":").replace("&amp;", "&");
        return replace(s, "%([0-9a-fA-F]{2})", m -> String.valueOf((char) Integer.parseInt(m.group(1), 16)));
    }

    private static String replace(String s, String regex, java.util.function.Function<Matcher, String> by) {
        Matcher m = Pattern.compile(regex).matcher(s);
        StringBuilder sb = new StringBuilder();
        while (m.find()) m.appendReplacement(sb, Matcher.quoteReplacement(by.apply(m)));
        return m.appendTail(sb).toString();
    }
}
