package dev.gamagent.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.util.Json;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A minimal Chrome DevTools Protocol client over the JDK's WebSocket, for the browser test. */
public final class DevToolsSession implements AutoCloseable {
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();

    public DevToolsSession(HttpClient client, String wsUrl) {
        socket = client.newWebSocketBuilder().buildAsync(URI.create(wsUrl), new WebSocket.Listener() {
            private final StringBuilder buf = new StringBuilder();

            @Override public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                buf.append(data);
                if (last) {
                    String text = buf.toString();
                    buf.setLength(0);
                    try {
                        JsonNode msg = Json.MAPPER.readTree(text);
                        if (msg.has("id")) {
                            CompletableFuture<JsonNode> f = pending.remove(msg.get("id").asInt());
                            if (f != null) f.complete(msg);
                        }
                    } catch (Exception e) {
                        // events we cannot parse are not ours to handle
                    }
                }
                ws.request(1);
                return null;
            }
        }).join();
    }

    /** Sends a command and returns its {@code result}; a protocol error fails with the browser's message. */
    public JsonNode call(String method, ObjectNode params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> f = new CompletableFuture<>();
        pending.put(id, f);
        ObjectNode msg = Json.MAPPER.createObjectNode().put("id", id).put("method", method);
        msg.set("params", params == null ? Json.MAPPER.createObjectNode() : params);
        socket.sendText(Json.write(msg), true).join();
        JsonNode reply = f.get(30, TimeUnit.SECONDS);
        if (reply.has("error")) throw new IllegalStateException(method + " failed: " + reply.get("error"));
        return reply.path("result");
    }

    /** Evaluates a JavaScript expression in the page and returns its value. */
    public JsonNode eval(String expression) throws Exception {
        JsonNode r = call("Runtime.evaluate", Json.MAPPER.createObjectNode().put("expression", expression).put("returnByValue", true));
        if (r.has("exceptionDetails")) throw new IllegalStateException("page script failed: " + r.get("exceptionDetails"));
        return r.path("result").path("value");
    }

    @Override public void close() {
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done");
    }
}
