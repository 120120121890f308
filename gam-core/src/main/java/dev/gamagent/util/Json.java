package dev.gamagent.util;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** The one shared, immutable-by-convention Jackson mapper (thread-safe once configured). */
public final class Json {
    private Json() { }

    public static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .configure(SerializationFeature.FAIL_ON_EMPTY_BEANS, false);

    public static String write(Object o) {
        try {
            return MAPPER.writeValueAsString(o);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + o.getClass().getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    /**
     * What is wrong with JSON that did not parse, in words, with the line and column when the parser knows them (it
     * does not for a document nested deeper than Jackson's limit of 1000 levels, which has no location).
     */
    public static String problem(com.fasterxml.jackson.core.JsonProcessingException e) {
        String what;
        if (e instanceof com.fasterxml.jackson.core.exc.StreamConstraintsException && String.valueOf(e.getOriginalMessage()).contains("nesting depth")) {
            int max = com.fasterxml.jackson.core.StreamReadConstraints.defaults().getMaxNestingDepth();
            what = "it is nested more than " + max + " levels deep (arrays and objects inside each other)";
        } else {
            what = e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage();
        }
        com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
        return at == null || at.getLineNr() < 1 ? what : what + " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }

    public static String writePretty(Object o) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(o);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + o.getClass().getSimpleName() + ": " + e.getMessage(), e);
        }
    }
}
