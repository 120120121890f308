package dev.gamagent.eval.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A strict RFC 4180 reader for the tests: records end in CRLF, a field is either unquoted (no comma, quote, CR or LF) or
 * quoted with its quotes doubled; the UTF-8 byte-order mark a spreadsheet needs must come first. Anything else fails.
 */
public final class AnswerCsv {
    private AnswerCsv() { }

    public static List<List<String>> parse(String text) {
        if (!text.startsWith(AnswerTable.BOM)) throw new IllegalArgumentException("no UTF-8 byte-order mark");
        List<List<String>> out = new ArrayList<>();
        List<String> record = new ArrayList<>();
        StringBuilder f = new StringBuilder();
        int i = 1, n = text.length();
        while (i < n) {
            if (text.charAt(i) == '"') {
                i++;
                while (true) {
                    if (i >= n) throw new IllegalArgumentException("unterminated quoted field in record " + (out.size() + 1));
                    char c = text.charAt(i++);
                    if (c == '"') {
                        if (i < n && text.charAt(i) == '"') { f.append('"'); i++; } else break;
                    } else {
                        f.append(c);
                    }
                }
            } else {
                while (i < n && text.charAt(i) != ',' && text.charAt(i) != '\r') {
                    char c = text.charAt(i++);
                    if (c == '"' || c == '\n') throw new IllegalArgumentException("bare " + (c == '"' ? "quote" : "LF") + " in record " + (out.size() + 1));
                    f.append(c);
                }
            }
            record.add(f.toString());
            f.setLength(0);
            if (i < n && text.charAt(i) == ',') { i++; continue; }
            if (i + 1 < n + 1 && text.startsWith("\r\n", i)) {
                i += 2;
                out.add(record);
                record = new ArrayList<>();
                continue;
            }
            throw new IllegalArgumentException("record " + (out.size() + 1) + " does not end in CRLF");
        }
        if (!record.isEmpty()) throw new IllegalArgumentException("the last record does not end in CRLF");
        return out;
    }
}
