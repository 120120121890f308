package dev.gamagent.gam;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.util.Json;

/** JSON schemas for structured output (docs/CONTRACTS.md §1): expert answers and critic assessments. */
final class ResponseSchemas {
    private ResponseSchemas() { }

    static final JsonNode EXPERT = parse("""
            {"type":"object","properties":{
              "answer":{"type":"string"},
              "claims":{"type":"array","items":{"type":"object","properties":{
                "text":{"type":"string"},"confidence":{"type":"number"},"evidence":{"type":"string"},
                "region":{"type":"array","items":{"type":"number"}}},
                "required":["text","confidence","evidence","region"],"additionalProperties":false}},
              "confidence":{"type":"number"}},
             "required":["answer","claims","confidence"],"additionalProperties":false}
            """);

    /** {@link #EXPERT} for a request of several images (a video's frames): each claim also names its frame, 1..N. */
    static final JsonNode EXPERT_FRAMES = parse("""
            {"type":"object","properties":{
              "answer":{"type":"string"},
              "claims":{"type":"array","items":{"type":"object","properties":{
                "text":{"type":"string"},"confidence":{"type":"number"},"evidence":{"type":"string"},
                "region":{"type":"array","items":{"type":"number"}},"frame":{"type":"integer"}},
                "required":["text","confidence","evidence","region","frame"],"additionalProperties":false}},
              "confidence":{"type":"number"}},
             "required":["answer","claims","confidence"],"additionalProperties":false}
            """);

    static final JsonNode CRITIQUE = parse("""
            {"type":"object","properties":{
              "assessments":{"type":"array","items":{"type":"object","properties":{
                "claim":{"type":"integer"},
                "assessment":{"type":"string","enum":["accurate","partially accurate","inaccurate"]},
                "reason":{"type":"string"},"correction":{"type":"string"},"confidence":{"type":"number"}},
                "required":["claim","assessment","reason","correction","confidence"],"additionalProperties":false}}},
             "required":["assessments"],"additionalProperties":false}
            """);

    private static JsonNode parse(String s) {
        try {
            return Json.MAPPER.readTree(s);
        } catch (Exception e) {
            throw new IllegalStateException("built-in GAM schema is invalid JSON", e);
        }
    }
}
