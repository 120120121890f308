package dev.gamagent.gam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.MethodRegistry;
import dev.gamagent.api.ProgressEvent;
import dev.gamagent.api.RunContext;
import dev.gamagent.config.Config;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The progress events of every method, as {@code gam serve} streams them (each event's type and its data as JSON), equal to
 * the record taken before the events were typed ({@code progress-events.txt}). Events arrive from several threads, so each
 * method's lines are compared in sorted order. The untyped events built with {@code Map.of} had no fixed key order (it
 * changed from one JVM to the next), so their data are compared as JSON objects; the ones built in insertion order
 * (GAM's experts, weights and critiques, DREAM's probes) are compared byte for byte.
 */
class ProgressEventsTest {
    private static final List<String> METHODS = List.of("single", "cot", "sc", "vote", "debate", "self-debate", "mad", "div-mad",
            "dmad", "chateval", "debunc", "dwi", "gam", "dream+gam", "dream+debate", "dream+mad");
    private final ExecutorService exec = Executors.newFixedThreadPool(4);

    @AfterEach void stop() { exec.shutdownNow(); }

    /** Every method's events, one line each ("method type {data}"), sorted within a method. */
    private List<String> events() {
        List<String> all = new ArrayList<>();
        for (String method : METHODS) {
            List<String> lines = Collections.synchronizedList(new ArrayList<>());
            MethodRegistry.create(method).run(TracePromptsTest.question(), new RunContext(TracePromptsTest.panel(), null, Config.defaults(), exec,
                    e -> lines.add(method + " " + e.type() + " " + Json.write(Json.MAPPER.valueToTree(e.data())))));
            List<String> sorted = new ArrayList<>(lines);
            Collections.sort(sorted);
            all.addAll(sorted);
        }
        return all;
    }

    /** Each line with its data's keys sorted, the lines sorted within a method. */
    private static List<String> normalised(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            int brace = line.indexOf('{');
            out.add(line.substring(0, brace) + Json.write(sorted(read(line.substring(brace)))));
        }
        List<String> byMethod = new ArrayList<>();
        String method = null;
        List<String> group = new ArrayList<>();
        for (String line : out) {
            String m = line.substring(0, line.indexOf(' '));
            if (!m.equals(method)) {
                Collections.sort(group);
                byMethod.addAll(group);
                group.clear();
                method = m;
            }
            group.add(line);
        }
        Collections.sort(group);
        byMethod.addAll(group);
        return byMethod;
    }

    /** The lines whose emitter wrote the data's keys in a fixed order (an expert's role, weights, critiques, probes). */
    private static List<String> ordered(List<String> lines) {
        return lines.stream().filter(l -> l.contains("\"role\":") || l.contains(" weights {") || l.contains(" critique {")
                || l.contains(" probe_answered {")).sorted().toList();
    }

    private static JsonNode read(String json) {
        try {
            return Json.MAPPER.readTree(json);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static JsonNode sorted(JsonNode n) {
        if (n.isObject()) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            List<String> names = new ArrayList<>();
            n.fieldNames().forEachRemaining(names::add);
            Collections.sort(names);
            for (String name : names) o.set(name, sorted(n.get(name)));
            return o;
        }
        return n;
    }

    @Test void everyMethodStreamsTheEventsItStreamedBeforeTheyWereTyped() throws IOException {
        List<String> expected;
        try (InputStream in = ProgressEventsTest.class.getResourceAsStream("progress-events.txt")) {
            assertThat(in).as("the recorded events").isNotNull();
            expected = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        List<String> actual = events();
        Path out = Path.of("target", "progress-events.actual.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, actual, StandardCharsets.UTF_8);
        assertThat(normalised(actual)).containsExactlyElementsOf(normalised(expected));
        assertThat(ordered(actual)).as("events written in a fixed order").containsExactlyElementsOf(ordered(expected));
        assertThat(actual.stream().map(l -> l.split(" ")[1]).distinct())
                .as("every kind of event is covered").contains("round_started", "agent_started", "agent_answered", "critique",
                        "weights", "probe_answered", "dream_branch");
    }

    @Test void aProgramReadsTheEventsFieldsByType() {
        List<ProgressEvent> seen = Collections.synchronizedList(new ArrayList<>());
        MethodRegistry.create("dream+gam").run(TracePromptsTest.question(), new RunContext(TracePromptsTest.panel(), null, Config.defaults(), exec, seen::add));
        List<ProgressEvent.Weights> weights = seen.stream().filter(e -> e instanceof ProgressEvent.Weights)
                .map(e -> (ProgressEvent.Weights) e).toList();
        assertThat(weights).isNotEmpty().allSatisfy(w -> {
            assertThat(w.weights().values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(1.0, within(1e-9));
            assertThat(w.data()).containsEntry("U_sys", w.uSys()).containsEntry("weights", w.weights());
        });
        assertThat(seen).filteredOn(e -> e instanceof ProgressEvent.ProbeAnswered p && p.error() == null && p.u() >= 0).hasSize(9);
        assertThat(seen).filteredOn(e -> e instanceof ProgressEvent.RoundStarted r && r.k() == -1 && "probe".equals(r.phase())).hasSize(1);
        assertThat(seen.stream().map(ProgressEvent::type)).contains("dream_branch", "critique", "agent_answered");
    }
}
