package dev.gamagent.local;

import dev.gamagent.local.ocr.OcrEngine;
import dev.gamagent.local.ocr.TextLine;

import java.awt.Rectangle;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test tool, never a result: an OCR that "reads" text it was told is at given normalised places, with
 * per-character confidence falling as the text gets fewer pixels high (so a smaller image reads worse,
 * like the real recogniser). The production engine is {@code PpOcrEngine}.
 */
final class LayoutOcr implements OcrEngine {
    record Placed(String text, Rectangle2D.Double where) { }

    private final List<Placed> placed;
    final AtomicInteger calls = new AtomicInteger();

    LayoutOcr(Placed... placed) { this.placed = List.of(placed); }

    @Override public List<TextLine> read(BufferedImage image) {
        calls.incrementAndGet();
        List<TextLine> out = new ArrayList<>();
        for (Placed p : placed) {
            Rectangle box = new Rectangle((int) (p.where().x * image.getWidth()), (int) (p.where().y * image.getHeight()),
                    (int) Math.max(1, p.where().width * image.getWidth()), (int) Math.max(1, p.where().height * image.getHeight()));
            out.add(line(p.text(), box));
        }
        return out;
    }

    @Override public TextLine readLine(BufferedImage lineImage) {
        return line(placed.isEmpty() ? "" : placed.get(0).text(), new Rectangle(0, 0, lineImage.getWidth(), lineImage.getHeight()));
    }

    static TextLine line(String text, Rectangle box) {
        double pRight = 1 / (1 + Math.exp(-(box.height - 8) / 1.5));
        List<TextLine.CharDistribution> chars = new ArrayList<>();
        StringBuilder decoded = new StringBuilder();
        for (char c : text.toCharArray()) {
            String right = String.valueOf(c);
            String wrong = Character.isLetter(c) ? String.valueOf((char) ('a' + (Character.toLowerCase(c) - 'a' + 1) % 26)) : "#";
            List<TextLine.Candidate> top = new ArrayList<>();
            double pw = (1 - pRight) * 0.7, po = (1 - pRight) * 0.2;
            top.add(new TextLine.Candidate(right, pRight));
            top.add(new TextLine.Candidate(wrong, pw));
            top.add(new TextLine.Candidate("o", po));
            top.sort((a, b) -> Double.compare(b.probability(), a.probability()));
            decoded.append(top.get(0).character());
            chars.add(new TextLine.CharDistribution(top));
        }
        return new TextLine(box, decoded.toString(), chars, 0.9);
    }
}
