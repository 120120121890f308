package dev.gamagent.image;

import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The decode budget, the kept size and the header check that refuses truncated files before decoding. */
class DecodeBudgetTest {
    @Test void aDecodeWaitsWhileOthersHoldTheBudgetAndProceedsWhenTheyReturnIt() throws Exception {
        DecodeBudget budget = new DecodeBudget(1_000_000);
        DecodeBudget.Lease first = budget.acquire(800_000, "a");
        AtomicBoolean second = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            try (DecodeBudget.Lease l = budget.acquire(500_000, "b")) {
                second.set(true);
            }
            done.countDown();
        });
        t.start();
        assertThat(done.await(200, TimeUnit.MILLISECONDS)).as("b must wait for a's pixels").isFalse();
        assertThat(second).isFalse();
        first.close();
        first.close(); // closing twice returns the pixels once
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(budget.available()).isEqualTo(budget.pixels());
    }

    @Test void anImageLargerThanTheWholeBudgetDecodesAloneInsteadOfWaitingForever() {
        DecodeBudget budget = new DecodeBudget(10_000);
        try (DecodeBudget.Lease l = budget.acquire(1_000_000, "big")) {
            assertThat(budget.available()).isZero();
        }
        assertThat(budget.available()).isEqualTo(budget.pixels());
    }

    @Test void aLoaderDownscalesToTheKeptSizeAndReturnsEveryPixelToTheBudget() throws Exception {
        DecodeBudget budget = new DecodeBudget(50_000_000);
        byte[] png = ImageLoaderTest.encode(ImageLoaderTest.noise(400, 300), "png");
        Picture p = new ImageLoader(0).withBudget(budget).keepingAtMost(30_000).bytes("row 1", png);
        assertThat(p.pixels()).isLessThanOrEqualTo(30_000).isGreaterThan(25_000);
        assertThat(p.source()).isEqualTo("row 1");
        assertThat(budget.available()).isEqualTo(budget.pixels());
        assertThat(new ImageLoader(0).keepingAtMost(1_000_000).bytes("small", png).pixels()).isEqualTo(120_000);
    }

    @Test void inspectionRefusesTruncatedPngAndGifAndOversizedHeadersWithoutDecoding() throws Exception {
        BufferedImage img = ImageLoaderTest.quadrants();
        byte[] png = ImageLoaderTest.encode(img, "png");
        assertThat(new ImageLoader(0).inspect("ok.png", png)).isEqualTo(new ImageLoader.Header(ImageFormat.PNG, 16, 12));
        assertThatThrownBy(() -> new ImageLoader(0).inspect("cut.png", Arrays.copyOf(png, png.length - 20)))
                .hasMessage("cut.png: truncated PNG (the file ends before its IEND chunk); re-export or re-download it");
        byte[] gif = ImageLoaderTest.encode(img, "gif");
        assertThatThrownBy(() -> new ImageLoader(0).inspect("cut.gif", Arrays.copyOf(gif, gif.length - 3)))
                .hasMessageContaining("truncated GIF");
        assertThatThrownBy(() -> new ImageLoader(100_000_000).inspect("huge.png", ImageLoaderTest.pngHeaderOnly(20_000, 20_000)))
                .isInstanceOf(ImageTooLargeException.class).hasMessageContaining("20000x20000");
    }
}
