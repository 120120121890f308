package dev.gamagent.eval.recipe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lines of a paper's text, verbatim, kept where a recipe's figures were transcribed from
 * ({@code recipes/excerpts/<name>.txt}): {@code #} lines describe it (source file, table columns), the
 * others are {@code <line number>:<the line as in the source>}.
 */
public record Excerpt(String name, String source, List<String> columns, Map<Integer, String> lines) {
    private static final Pattern LINE = Pattern.compile("(\\d+):(.*)");
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(?:\\.\\d+)?");

    public static Excerpt parse(String name, String text) {
        String source = null;
        List<String> columns = List.of();
        Map<Integer, String> lines = new LinkedHashMap<>();
        for (String l : text.split("\n", -1)) {
            if (l.isEmpty()) continue;
            if (l.startsWith("#")) {
                String c = l.substring(1).strip();
                if (c.startsWith("source:")) source = c.substring("source:".length()).strip();
                if (c.startsWith("columns:")) columns = List.of(c.substring("columns:".length()).strip().split(",\\s*"));
                continue;
            }
            Matcher m = LINE.matcher(l);
            if (!m.matches()) throw new IllegalArgumentException("excerpt " + name + ": line '" + l + "' is neither '#…' nor '<number>:<text>'");
            lines.put(Integer.parseInt(m.group(1)), m.group(2));
        }
        if (source == null) throw new IllegalArgumentException("excerpt " + name + ": no '# source:' line");
        return new Excerpt(name, source, columns, lines);
    }

    /** The source file's name (the first word of the {@code source:} line). */
    public String sourceFile() { return source.split("\\s+")[0]; }

    /**
     * The numeric cells of a table line, in order: the cells between {@code |} that are a number
     * (optionally followed by a parenthesised change or a dagger), as printed.
     */
    public static List<String> numericCells(String line) {
        List<String> out = new ArrayList<>();
        for (String cell : line.split("\\|")) {
            String c = cell.strip();
            Matcher m = NUMBER.matcher(c);
            if (m.lookingAt() && (m.end() == c.length() || c.substring(m.end()).strip().matches("\\(.*\\)|†"))) out.add(m.group());
        }
        return out;
    }
}
