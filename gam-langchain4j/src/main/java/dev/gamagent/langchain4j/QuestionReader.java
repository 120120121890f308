package dev.gamagent.langchain4j;

import dev.gamagent.api.Question;
import dev.gamagent.engine.QuestionText;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.Picture;
import dev.langchain4j.data.image.Image;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A LangChain4j conversation read as a {@link Question}, as {@code gam serve} reads an OpenAI request: the user
 * messages' text through {@link QuestionText} (labels, hint, options "A. red" one per line or inline, instruction
 * sentences set apart; a text without options is an open question), system messages as the hint (less their
 * instructions), and every {@link ImageContent} as an image: base64 data, a {@code data:} URL, an http(s) URL (fetched)
 * or a {@code file:} URL.
 */
final class QuestionReader {
    private final ImageLoader loader;
    private final Duration fetchTimeout;

    QuestionReader(ImageLoader loader, Duration fetchTimeout) {
        this.loader = loader;
        this.fetchTimeout = fetchTimeout;
    }

    Question read(String id, List<ChatMessage> messages) {
        StringBuilder text = new StringBuilder(), system = new StringBuilder();
        List<Picture> images = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            ChatMessage m = messages.get(i);
            if (m instanceof SystemMessage s) append(system, s.text());
            if (!(m instanceof UserMessage u)) continue; // earlier assistant turns carry no new evidence
            List<Content> contents = u.contents();
            for (int j = 0; j < contents.size(); j++) {
                Content c = contents.get(j);
                if (c instanceof TextContent t) append(text, t.text());
                else if (c instanceof ImageContent ic) images.add(picture("messages[" + i + "].contents[" + j + "]", ic.image()));
                else throw new IllegalArgumentException("messages[" + i + "].contents[" + j + "]: " + c.type()
                        + " content is not supported by GAM (text and images only)");
            }
        }
        QuestionText.Read asked = QuestionText.read(text.toString());
        String q = asked.question().strip();
        if (q.isEmpty()) throw new IllegalArgumentException("no question text in the user messages");
        StringBuilder hint = new StringBuilder();
        append(hint, QuestionText.withoutInstructions(system.toString()));
        append(hint, asked.hint());
        String h = hint.toString().strip();
        return new Question(id, images, q, h.isEmpty() ? null : h, asked.options());
    }

    private Picture picture(String where, Image image) {
        if (image.base64Data() != null && !image.base64Data().isBlank()) return loader.encodedBase64(where, image.base64Data());
        URI url = image.url();
        if (url == null) throw new IllegalArgumentException(where + ": an image with neither base64 data nor a URL");
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(java.util.Locale.ROOT);
        return switch (scheme) {
            case "data" -> loader.encoded(where, ImageLoader.dataUrlBytes(where, url.toString()));
            case "file" -> loader.encodedFile(Path.of(url));
            case "http", "https" -> loader.encoded(where + " (" + url + ")", fetch(where, url));
            default -> throw new IllegalArgumentException(where + ": image URL scheme '" + scheme
                    + "' is not supported; give base64 data, a data:, http(s): or file: URL");
        };
    }

    private byte[] fetch(String where, URI url) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(fetchTimeout).followRedirects(HttpClient.Redirect.NORMAL).build();
        try {
            HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(url).timeout(fetchTimeout).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() / 100 != 2) throw new IllegalArgumentException(where + ": fetching " + url + " answered HTTP " + r.statusCode());
            return r.body();
        } catch (IOException e) {
            throw new IllegalArgumentException(where + ": cannot fetch " + url + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(where + ": interrupted while fetching " + url, e);
        }
    }

    private static void append(StringBuilder sb, String s) {
        if (s == null || s.isBlank()) return;
        if (sb.length() > 0) sb.append('\n');
        sb.append(s.strip());
    }
}
