package dev.gamagent.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import dev.gamagent.server.GamServer;
import dev.gamagent.server.MethodCatalog;
import dev.gamagent.server.ServerSettings;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.testing.Pngs;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bad-input catalogue: what a hostile but fair user might hand each entry point, and what they get
 * back. Every input goes through the real path ({@code gam ask}/{@code gam eval} via {@code Main.run}, the
 * server over a socket); every answer must be one line naming the input (file, row, field or header) and
 * never a stack trace, a hang or a 500.
 */
class BadInputCatalogueTest {
    @TempDir Path dir;

    record Entry(String input, String entry, String result, String message) { }

    private final List<Entry> entries = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    /** Records an entry; {@code mustName} is what the message has to mention (the file, row or field). */
    private void add(String input, String entry, String result, String message, String mustName) {
        String m = message.strip().replace(dir.toString() + "/", "").replace(dir.toString(), ".");
        entries.add(new Entry(input, entry, result, m));
        if (!message.contains(mustName)) problems.add(input + ": the message does not name '" + mustName + "': " + message);
        if (message.contains("\tat ") || message.contains("Exception:") && !message.contains("Failed")) {
            problems.add(input + ": looks like a stack trace or a raw exception: " + message);
        }
    }

    private static String png(int w, int h) throws Exception {
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        var g = img.createGraphics();
        g.setColor(Color.RED);
        g.fillRect(0, 0, w, h);
        g.dispose();
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        ImageIO.write(img, "png", b);
        return Base64.getEncoder().encodeToString(b.toByteArray());
    }

    // ---- benchmark files (gam eval) ----------------------------------------------------------------------------

    private static final String HEADER = "index\timage\tquestion\tA\tB\tanswer\n";

    /** Runs gam eval on a file whose row 2 is bad; returns the line about it (or the error line). */
    private void evalRow(String input, String row2, String mustName) throws Exception {
        String tsv = HEADER + "1\t" + png(8, 8) + "\tQ?\tred\tblue\tA\n" + row2 + "\n";
        Path f = Files.writeString(dir.resolve("bad" + entries.size() + ".tsv"), tsv);
        evalFile(input, f, mustName);
    }

    private void evalFile(String input, Path f, String mustName) {
        CommandRun r = CommandRun.main("eval", "--data", f.toString(), "--methods", "single", "--out", dir.resolve("out" + entries.size()).toString(),
                "--backend", "replay", "--replay", dir.resolve("none.jsonl").toString());
        String line = r.err().lines().filter(l -> l.startsWith("skipped") || l.startsWith("error:")).findFirst().orElse(r.err().strip());
        add(input, "gam eval", line.startsWith("skipped") ? "row skipped, the rest run" : "exit " + r.code(), line, mustName);
    }

    private void bytesRow(String input, byte[] file) throws Exception {
        Path f = Files.write(dir.resolve("bytes" + entries.size() + ".tsv"), file);
        evalFile(input, f, "row 2");
    }

    @Test void everyBadInputIsNamedInOneLine() throws Exception {
        Files.writeString(dir.resolve("none.jsonl"), "");
        evalRow("an image header claiming 16000×16000", "2\t" + Base64.getEncoder().encodeToString(Pngs.claiming(16_000, 16_000))
                + "\tQ?\tred\tblue\tA", "row 2");
        byte[] full = Base64.getDecoder().decode(png(40, 30));
        evalRow("a PNG cut in half", "2\t" + Base64.getEncoder().encodeToString(Arrays.copyOf(full, full.length / 2)) + "\tQ?\tred\tblue\tA", "row 2");
        evalRow("forty 6000² images in one row", "2\t['" + String.join("', '", java.util.Collections.nCopies(40,
                Base64.getEncoder().encodeToString(Pngs.claiming(6000, 6000)))) + "']\tQ?\tred\tblue\tA", "row 2");
        evalRow("a multiple-choice row without options", "2\t1\tWhich colour?\t\t\tA", "row 2");
        evalRow("base64 of a text file", "2\t" + Base64.getEncoder().encodeToString("just some text, not an image at all, long enough".repeat(2)
                .getBytes(StandardCharsets.UTF_8)) + "\tQ?\tred\tblue\tA", "row 2");
        evalRow("a row with too few fields", "2\t1\tQ?", "2");
        evalRow("an answer that is not an option", "2\t1\tQ?\tred\tblue\tC", "row 2");
        evalRow("a repeated index", "1\t1\tQ again?\tred\tblue\tA", "row 1");
        evalRow("an image reference to a row that does not exist", "2\t42\tQ?\tred\tblue\tA", "row 2");
        byte[] latin = (HEADER + "1\t" + png(8, 8) + "\tQ?\tred\tblue\tA\n2\t1\tCaf_?\tred\tblue\tA\n").getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < latin.length; i++) if (latin[i] == '_') latin[i] = (byte) 0xE9;
        bytesRow("a Latin-1 byte (é) in a UTF-8 file", latin);
        evalFile("an empty file", Files.writeString(dir.resolve("empty.tsv"), ""), "empty.tsv");
        evalFile("a .csv file", Files.writeString(dir.resolve("data.csv"), "a,b\n"), "data.csv");
        evalFile("a JSON file that is not M3MAD", Files.writeString(dir.resolve("m3mad.json"), "{\"hello\": 1}"), "m3mad.json");

        // ---- image files (gam ask) ----
        for (String[] c : new String[][]{{"an HTML page saved as .png", "page.png", "<!doctype html><html><body>404</body></html>"},
                {"an empty file", "empty.png", ""}}) {
            Path f = Files.writeString(dir.resolve(c[1]), c[2]);
            CommandRun r = CommandRun.main("ask", "--image", f.toString(), "--question", "Q?", "--backend", "replay", "--replay", dir.resolve("none.jsonl").toString());
            add(c[0], "gam ask", "exit " + r.code(), r.err().strip(), c[1]);
        }
        Path huge = Files.write(dir.resolve("huge.png"), Pngs.claiming(16_000, 16_000));
        CommandRun r = CommandRun.main("ask", "--image", huge.toString(), "--question", "Q?", "--backend", "replay", "--replay", dir.resolve("none.jsonl").toString());
        add("an image file claiming 16000×16000", "gam ask", "exit " + r.code(), r.err().strip(), "huge.png");
        r = CommandRun.main("ask", "--image", dir.toString(), "--question", "Q?", "--backend", "replay", "--replay", dir.resolve("none.jsonl").toString());
        add("a directory given as --image", "gam ask", "exit " + r.code(), r.err().strip(), dir.toString());

        secondRunOnOneOut();

        // ---- configuration files (any command; gam config show) ----
        Path deep = Files.writeString(dir.resolve("deep.json"), "{\"gam\": " + "[".repeat(1001) + "]".repeat(1001) + "}");
        r = CommandRun.main("config", "show", "--config", deep.toString());
        add("a config file nested 1001 levels deep", "gam config show", "exit " + r.code(), r.err().strip(), "deep.json");

        serverInputs();

        assertThat(problems).as("entries without a clear, named message").isEmpty();
        assertThat(entries).allSatisfy(e -> assertThat(e.result()).doesNotContain("exit 0").doesNotContain("500"));
        StringBuilder table = new StringBuilder("| input | given to | result | message |\n|---|---|---|---|\n");
        for (Entry e : entries) {
            String m = e.message().length() > 260 ? e.message().substring(0, 257) + "…" : e.message();
            table.append("| ").append(e.input()).append(" | ").append(e.entry()).append(" | ").append(e.result()).append(" | ")
                    .append(m.replace("|", "\\|").replaceAll("\\s+", " ")).append(" |\n");
        }
        Suite.report("bad-inputs", table.toString());
    }

    /** A gam eval child writes to an --out, its model server holding its answer; a second gam eval on the same --out. */
    private void secondRunOnOneOut() throws Exception {
        Path tsv = Files.writeString(dir.resolve("two.tsv"), HEADER + "1\t" + png(8, 8) + "\tQ?\tred\tblue\tA\n");
        Path out = dir.resolve("shared-out");
        java.util.concurrent.CountDownLatch asked = new java.util.concurrent.CountDownLatch(1), answer = new java.util.concurrent.CountDownLatch(1);
        try (dev.gamagent.testing.http.OpenAiWireServer upstream = new dev.gamagent.testing.http.OpenAiWireServer()) {
            upstream.respondWith(r -> {
                asked.countDown();
                try {
                    answer.await(120, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return dev.gamagent.testing.http.Reply.answer("A");
            });
            List<String> eval = List.of("eval", "--data", tsv.toString(), "--methods", "single", "--out", out.toString(), "--backend", "openai",
                    "--base-url", upstream.baseUrl(), "--model", "m", "--retries", "0");
            List<String> cmd = new ArrayList<>(dev.gamagent.testing.CliProcess.javaCommand(dev.gamagent.testing.CliProcess.class.getName()));
            cmd.addAll(eval);
            Process first = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("first.log").toFile()).start();
            try {
                assertThat(asked.await(120, java.util.concurrent.TimeUnit.SECONDS)).as("the first run is answering").isTrue();
                CommandRun second = CommandRun.main(eval.toArray(String[]::new));
                String line = second.err().lines().filter(l -> l.startsWith("error:")).findFirst().orElse(second.err().strip());
                add("a second gam eval on an --out another run is writing to", "gam eval", "exit " + second.code(),
                        line.replaceAll("process \\d+, started [^)]*", "process PID, started TIME"), "another run is writing to");
            } finally {
                answer.countDown();
                if (!first.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)) first.destroyForcibly();
            }
            assertThat(first.exitValue()).as(Files.readString(dir.resolve("first.log"))).isZero();
        }
    }

    // ---- requests to gam serve ------------------------------------------------------------------------------------

    private void serverInputs() throws Exception {
        ServerSettings settings = ServerSettings.fromConfig(Config.defaults(), "127.0.0.1", 0, null, dir.resolve("traces.db"));
        try (GamServer server = new GamServer(settings, ScriptedBackend.text(q -> "A"), Config.defaults(), MethodCatalog.REGISTRY, List.of())) {
            int port = server.start();
            String ok = new Picture("p", ImageIO.read(new java.io.ByteArrayInputStream(Base64.getDecoder().decode(png(8, 8))))).dataUrl();
            request(port, "a body that is not JSON", "application/json", "127.0.0.1", "{\"model\": \"single\", ", "JSON");
            request(port, "a body nested 1001 levels deep", "application/json", "127.0.0.1",
                    "{\"model\": \"single\", \"messages\": " + "[".repeat(1001) + "]".repeat(1001) + "}", "nested more than 1000 levels");
            request(port, "no image in the messages", "application/json", "127.0.0.1", body("single", "Q?"), "image_url");
            request(port, "an unknown model", "application/json", "127.0.0.1", body("gpt-4o", "Q?", ok), "gpt-4o");
            request(port, "a file: image URL", "application/json", "127.0.0.1", body("single", "Q?", "file:///etc/passwd"), "file:");
            request(port, "an image URL from a host not allowed", "application/json", "127.0.0.1", body("single", "Q?", "http://169.254.169.254/x.png"),
                    "169.254.169.254");
            request(port, "\"null\" as an image URL", "application/json", "127.0.0.1", body("single", "Q?", "null"), "no scheme");
            request(port, "a scheme-relative image URL", "application/json", "127.0.0.1", body("single", "Q?", "//127.0.0.1/x.png"), "scheme-relative");
            request(port, "an image URL whose host is 127.1", "application/json", "127.0.0.1", body("single", "Q?", "http://127.1/x.png"), "127.0.0.1, a loopback");
            String big = "data:image/png;base64," + Base64.getEncoder().encodeToString(Pngs.claiming(6000, 6000));
            request(port, "five 6000² images in one request", "application/json", "127.0.0.1", body("single", "Q?", big, big, big, big, big),
                    "server.max_request_megapixels");
            request(port, "a text/plain POST (what a cross-site form sends)", "text/plain", "127.0.0.1", body("single", "Q?", ok), "Content-Type");
            request(port, "Host: evil.example (DNS rebinding)", "application/json", "evil.example", body("single", "Q?", ok), "evil.example");
            request(port, "Origin: https://evil.example", "application/json", "127.0.0.1\r\nOrigin: https://evil.example", body("single", "Q?", ok),
                    "https://evil.example");
            request(port, "a body over 20 MB", "application/json", "127.0.0.1", "{\"x\":\"" + "a".repeat(21 * 1024 * 1024) + "\"}", "server.max_body_mb");
        }
        ServerSettings allowing = ServerSettings.fromConfig(Config.defaults().withOverrides(Map.of("server.allowed_image_hosts", "[\"127.0.0.1\"]")),
                "127.0.0.1", 0, null, dir.resolve("traces2.db"));
        try (GamServer server = new GamServer(allowing, ScriptedBackend.text(q -> "A"), Config.defaults(), MethodCatalog.REGISTRY, List.of());
             java.net.ServerSocket closed = new java.net.ServerSocket(0)) {
            int port = server.start();
            int dead = closed.getLocalPort();
            closed.close(); // nothing listens there now
            int before = entries.size();
            request(port, "an image URL whose (allowed) host refuses the connection", "application/json", "127.0.0.1",
                    body("single", "Q?", "http://127.0.0.1:" + dead + "/x.png"), "refused");
            Entry e = entries.remove(before);
            entries.add(new Entry(e.input(), e.entry(), e.result(), e.message().replace(Integer.toString(dead), "PORT")));
        }
    }

    private static String body(String model, String text, String... urls) {
        List<Object> content = new ArrayList<>();
        content.add(Map.of("type", "text", "text", text));
        for (String u : urls) content.add(Map.of("type", "image_url", "image_url", Map.of("url", u)));
        return Json.write(Map.of("model", model, "messages", List.of(Map.of("role", "user", "content", content))));
    }

    private void request(int port, String input, String type, String host, String body, String mustName) throws Exception {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        String response;
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: " + type + "\r\nContent-Length: " + b.length
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            try {
                out.write(b);
            } catch (java.net.SocketException refusedEarly) {
                // the server answered (413) before the whole body was sent
            }
            response = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
        int status = Integer.parseInt(response.substring(9, 12));
        JsonNode err = Json.MAPPER.readTree(response.substring(response.indexOf("\r\n\r\n") + 4)).path("error");
        add(input, "gam serve", status + " `" + err.path("code").asText() + "`", err.path("message").asText(), mustName);
    }
}
