package dev.gamagent.eval.report;

import dev.gamagent.util.Json;

/** Escaping for the report pages ({@link HtmlReport}): text in HTML, and JSON inside a script element. */
final class Html {
    private Html() { }

    static String esc(String s) {
        if (s == null) return "";
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** JSON inside a script element: '<', '>' and '&' only occur inside strings, where \\u escapes mean the same. */
    static String safeJson(com.fasterxml.jackson.databind.JsonNode data) {
        return Json.write(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026");
    }
}
