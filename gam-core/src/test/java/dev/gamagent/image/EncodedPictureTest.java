package dev.gamagent.image;

import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Pictures read from PNG or JPEG bytes keep them: sent as they are, decoded only when pixels are needed, checked whole at load. */
class EncodedPictureTest {
    static byte[] encode(String format, int w, int h) {
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        var g = img.createGraphics();
        g.setColor(Color.ORANGE);
        g.fillRect(w / 4, h / 4, w / 2, h / 2);
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(img, format, out);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    @Test void aJpegIsSentAsItsOwnBytesAndDecodedOnlyWhenPixelsAreNeeded() {
        byte[] jpeg = encode("jpeg", 64, 48);
        Picture p = ImageLoader.fromEncoded("photo.jpg", jpeg);
        assertThat(p.width()).isEqualTo(64);
        assertThat(p.height()).isEqualTo(48);
        assertThat(p.mimeType()).isEqualTo("image/jpeg");
        assertThat(p.encoding().bytes()).isEqualTo(jpeg);
        assertThat(p.base64()).isEqualTo(Base64.getEncoder().encodeToString(jpeg));
        assertThat(p.dataUrl()).isEqualTo("data:image/jpeg;base64," + Base64.getEncoder().encodeToString(jpeg));
        assertThat(p.isDecoded()).isFalse();
        assertThat(p.image().getWidth()).isEqualTo(64);
        assertThat(p.isDecoded()).isTrue();
    }

    @Test void eachScaledSizeIsMadeOnceAndSharedAndAScaledPhotoStaysJpeg() {
        Picture photo = ImageLoader.fromEncoded("photo.jpg", encode("jpeg", 80, 60));
        Picture half = photo.scaled(0.5, 0);
        assertThat(photo.scaled(0.5, 0)).isSameAs(half);
        assertThat(photo.scaled(1.0, 0)).isSameAs(photo);
        assertThat(half.width()).isEqualTo(40);
        assertThat(half.mimeType()).isEqualTo("image/jpeg");
        assertThat(half.encoding()).isSameAs(half.encoding()); // encoded once

        Picture drawing = new Picture("drawing", new BufferedImage(80, 60, BufferedImage.TYPE_INT_RGB));
        assertThat(drawing.scaled(2.0, 0)).isSameAs(drawing.scaled(2.0, 0));
        assertThat(drawing.scaled(2.0, 0).mimeType()).isEqualTo("image/png");
        Picture png = ImageLoader.fromEncoded("d.png", encode("png", 30, 20));
        assertThat(png.encoding().bytes()).isEqualTo(encode("png", 30, 20));
        assertThat(png.encoding().base64()).isEqualTo(Base64.getEncoder().encode(encode("png", 30, 20)));
        assertThat(png.isDecoded()).isFalse();
    }

    @Test void truncatedOrCorruptFilesAreRefusedAtLoadWithoutDecoding() {
        byte[] jpeg = encode("jpeg", 64, 48);
        assertThatThrownBy(() -> ImageLoader.fromEncoded("cut.jpg", Arrays.copyOf(jpeg, jpeg.length - 40)))
                .isInstanceOf(ImageException.class).hasMessageContaining("cut.jpg").hasMessageContaining("truncated JPEG");
        byte[] png = encode("png", 64, 48);
        assertThatThrownBy(() -> ImageLoader.fromEncoded("cut.png", Arrays.copyOf(png, png.length - 20)))
                .isInstanceOf(ImageException.class).hasMessageContaining("cut.png").hasMessageContaining("truncated PNG");
        byte[] flipped = png.clone();
        flipped[idat(png) + 8] ^= 0x55; // damage the compressed data, leave the CRC as it was
        assertThatThrownBy(() -> ImageLoader.fromEncoded("crc.png", flipped))
                .isInstanceOf(ImageException.class).hasMessageContaining("IDAT fails its CRC check");
        byte[] garbage = withIdatData(png, "garbage, not zlib data at all".getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> ImageLoader.fromEncoded("garbage.png", garbage))
                .isInstanceOf(ImageException.class).hasMessageContaining("garbage.png").hasMessageContaining("compressed pixel data");
    }

    /** Offset of the first IDAT chunk (its length field). */
    private static int idat(byte[] png) {
        int at = 8;
        while (true) {
            int len = ByteBuffer.wrap(png, at, 4).getInt();
            if (new String(png, at + 4, 4, StandardCharsets.ISO_8859_1).equals("IDAT")) return at;
            at += 12 + len;
        }
    }

    /** The PNG with its first IDAT's data replaced (CRC recomputed, so only inflating finds the damage). */
    private static byte[] withIdatData(byte[] png, byte[] data) {
        int at = idat(png), len = ByteBuffer.wrap(png, at, 4).getInt();
        ByteBuffer out = ByteBuffer.allocate(png.length - len + data.length);
        out.put(png, 0, at).putInt(data.length).put("IDAT".getBytes(StandardCharsets.ISO_8859_1)).put(data);
        CRC32 crc = new CRC32();
        crc.update("IDAT".getBytes(StandardCharsets.ISO_8859_1));
        crc.update(data);
        out.putInt((int) crc.getValue());
        out.put(png, at + 12 + len, png.length - at - 12 - len);
        return out.array();
    }
}
