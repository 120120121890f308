package dev.gamagent.eval.load;

/** A row-level problem; the loader records it against the row's index and goes on. */
public final class BadRowException extends RuntimeException {
    BadRowException(String message) { super(message); }

    /** The first line of a message (a parser's message may go on with a dump of its input). */
    static String firstLine(String s) {
        if (s == null) return "";
        int i = s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i);
    }
}
