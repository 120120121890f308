package dev.gamagent.bench;

import dev.gamagent.api.Question;
import dev.gamagent.bench.VideoPhrasings.Kind;
import dev.gamagent.bench.VideoTruth.Track;
import dev.gamagent.image.internal.FrameSelection;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The video family's clips are drawn as their truth says and are answerable from the 8 frames VLMEvalKit's
 * uniform sampling takes: read from those frames' pixels (not from the truth), every blink count and every
 * order of appearance is the item's answer.
 */
class VideoScenesTest {
    private static final List<VideoItem> ITEMS = new ArrayList<>();
    /** The frames a model is shown by default: 8, sampled as VLMEvalKit samples a clip. */
    private static final List<Integer> EIGHT = FrameSelection.uniform(8).indices(0, VideoScenes.STEPS * VideoScenes.FRAMES_PER_STEP - 1, VideoScenes.FPS);

    @BeforeAll static void generate() {
        VideoGenerator g = new VideoGenerator(2026, Difficulty.DEFAULT_HARD_FRACTION, RenderStyle.Render.VARIED);
        for (int i = 0; i < 120; i++) ITEMS.add(g.generate(i));
    }

    @Test void thereAreAtLeastTwentyPhrasingsEachWithItsKindsPlaceholdersOnly() {
        Set<String> all = new HashSet<>();
        for (Kind k : Kind.values()) {
            assertThat(VideoPhrasings.of(k)).hasSizeGreaterThanOrEqualTo(5);
            for (String p : VideoPhrasings.of(k)) {
                assertThat(all.add(p)).as("duplicate phrasing '%s'", p).isTrue();
                Set<String> holes = new HashSet<>();
                Matcher m = Pattern.compile("\\{(\\w+)}").matcher(p);
                while (m.find()) holes.add(m.group(1));
                assertThat(holes).as(p).isEqualTo(switch (k) {
                    case DIRECTION -> Set.of("obj");
                    case BLINKS -> Set.of("color");
                    case FIRST, LAST -> Set.of();
                });
            }
        }
        assertThat(all).hasSizeGreaterThanOrEqualTo(20);
    }

    @Test void eightSampledFramesSeeEveryStepOnce() {
        assertThat(EIGHT.stream().map(f -> f / VideoScenes.FRAMES_PER_STEP)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    }

    @Test void everyKindDifficultyAndAnswerValueOccurs() {
        assertThat(ITEMS.stream().map(VideoItem::kind).distinct()).containsExactlyInAnyOrder(Kind.values());
        assertThat(ITEMS.stream().map(VideoItem::difficulty).distinct()).contains("easy", "medium", "hard");
        assertThat(ITEMS.stream().filter(i -> i.kind() == Kind.DIRECTION).map(VideoItem::answerText).distinct())
                .containsExactlyInAnyOrder("left", "right", "up", "down");
        assertThat(ITEMS.stream().filter(i -> i.kind() == Kind.BLINKS).map(VideoItem::answerText).distinct())
                .containsExactlyInAnyOrder("1", "2", "3", "4");
        assertThat(ITEMS.stream().map(VideoItem::question).distinct().count()).as("many phrasings in use").isGreaterThan(15);
        assertThat(ITEMS.stream().map(i -> i.truth().width() + "x" + i.truth().height()).distinct().count()).as("varied sizes").isGreaterThan(10);
    }

    @Test void theAnswerIsWhatTheTruthSays() {
        for (VideoItem it : ITEMS) {
            assertThat(it.options().values()).as("item %d options distinct", it.index()).doesNotHaveDuplicates();
            assertThat(it.options()).hasSizeBetween(2, 4);
            switch (it.kind()) {
                case DIRECTION -> {
                    Track t = named(it, it.question());
                    String dir = t.x1() < t.x0() ? "left" : t.x1() > t.x0() ? "right" : t.y1() < t.y0() ? "up" : "down";
                    assertThat(it.answerText()).as("item %d", it.index()).isEqualTo(dir);
                    long samePath = it.truth().tracks().stream().filter(o -> o != t && o.moves() && direction(o).equals(dir)).count();
                    assertThat(samePath).as("item %d: no other object moves the same way", it.index()).isZero();
                }
                case BLINKS -> {
                    Track lamp = it.truth().tracks().stream().filter(Track::light).filter(l -> it.question().contains(l.color() + " ")).findFirst().orElseThrow();
                    assertThat(it.answerText()).isEqualTo(String.valueOf(lamp.blinks()));
                    assertThat(lamp.litAt(0)).as("a lamp starts off").isFalse();
                }
                case FIRST, LAST -> {
                    List<Track> options = it.truth().tracks().stream().filter(t -> it.options().containsValue(t.name())).toList();
                    assertThat(options).hasSize(it.options().size());
                    assertThat(options).allMatch(t -> t.appears() >= 1).extracting(Track::appears).doesNotHaveDuplicates();
                    Track expected = options.stream().reduce((a, b) -> (it.kind() == Kind.FIRST ? a.appears() < b.appears() : a.appears() > b.appears()) ? a : b).orElseThrow();
                    assertThat(it.answerText()).isEqualTo(expected.name());
                }
            }
        }
    }

    @Test void blinkCountsAndAppearanceOrdersCanBeReadFromTheEightSampledFrames() {
        int checked = 0;
        for (VideoItem it : ITEMS) {
            if (it.kind() == Kind.DIRECTION) continue;
            List<BufferedImage> frames = EIGHT.stream().map(it::frame).toList();
            if (it.kind() == Kind.BLINKS) {
                Track lamp = it.truth().tracks().stream().filter(Track::light).filter(l -> it.question().contains(l.color() + " ")).findFirst().orElseThrow();
                int blinks = 0;
                boolean before = false;
                for (BufferedImage f : frames) {
                    boolean on = distance(mean(f, lamp.x0(), lamp.y0(), 0.35 * lamp.radius()), VideoItem.LAMP_OFF.getRGB()) > 60;
                    if (on && !before) blinks++;
                    before = on;
                }
                assertThat(String.valueOf(blinks)).as("item %d (%s, %s)", it.index(), it.difficulty(), it.render()).isEqualTo(it.answerText());
            } else {
                String seenFirst = null, seenLast = null;
                Set<String> seen = new HashSet<>();
                for (BufferedImage f : frames) {
                    List<String> now = new ArrayList<>();
                    for (Track t : it.truth().tracks()) {
                        if (it.options().containsValue(t.name()) && !seen.contains(t.name()) && drawn(f, t, it.truth().background())) now.add(t.name());
                    }
                    assertThat(now.size()).as("item %d: one object appears per sampled frame", it.index()).isLessThanOrEqualTo(1);
                    for (String n : now) {
                        if (seenFirst == null) seenFirst = n;
                        seenLast = n;
                        seen.add(n);
                    }
                }
                assertThat(it.kind() == Kind.FIRST ? seenFirst : seenLast).as("item %d (%s)", it.index(), it.render()).isEqualTo(it.answerText());
            }
            checked++;
        }
        assertThat(checked).isGreaterThan(50);
    }

    @Test void aSeedFixesEveryFrameAndTheItemAsAQuestionShowsTheSampledFrames() {
        VideoGenerator a = new VideoGenerator(7, 0.25, RenderStyle.Render.VARIED), b = new VideoGenerator(7, 0.25, RenderStyle.Render.VARIED);
        for (int i = 0; i < 6; i++) {
            VideoItem x = a.generate(i), y = b.generate(i);
            assertThat(x.question()).isEqualTo(y.question());
            assertThat(x.options()).isEqualTo(y.options());
            BufferedImage fx = x.frame(13), fy = y.frame(13);
            for (int px = 0; px < fx.getWidth(); px += 7) for (int py = 0; py < fx.getHeight(); py += 7) {
                assertThat(fx.getRGB(px, py)).isEqualTo(fy.getRGB(px, py));
            }
        }
        VideoItem it = a.generate(3, Kind.LAST);
        Question q = it.toQuestion(8);
        assertThat(q.images()).hasSize(8);
        assertThat(q.images().get(0).source()).isEqualTo("gam-video-3#frame-1");
        assertThat(q.options()).as("the answer names an option").containsKey(it.answer());
        assertThat(q.images().get(0).width()).isEqualTo(it.truth().width());
    }

    private static Track named(VideoItem it, String question) {
        return it.truth().tracks().stream().filter(t -> !t.light() && question.contains(t.name())).findFirst().orElseThrow();
    }

    private static String direction(Track t) {
        return t.x1() < t.x0() ? "left" : t.x1() > t.x0() ? "right" : t.y1() < t.y0() ? "up" : "down";
    }

    /** Whether at least a tenth of the object's box differs clearly from the background (filled or outlined). */
    private static boolean drawn(BufferedImage f, Track t, int background) {
        int x0 = (int) Math.max(0, t.x0() - t.radius()), x1 = (int) Math.min(f.getWidth() - 1, t.x0() + t.radius());
        int y0 = (int) Math.max(0, t.y0() - t.radius()), y1 = (int) Math.min(f.getHeight() - 1, t.y0() + t.radius());
        int differ = 0, all = 0;
        for (int x = x0; x <= x1; x++) for (int y = y0; y <= y1; y++) {
            all++;
            if (distance(f.getRGB(x, y), background) > 60) differ++;
        }
        return differ > 0.1 * all;
    }

    /** Mean colour of the pixels within {@code r} of (cx, cy). */
    private static int mean(BufferedImage f, double cx, double cy, double r) {
        long sr = 0, sg = 0, sb = 0, n = 0;
        for (int x = (int) (cx - r); x <= cx + r; x++) for (int y = (int) (cy - r); y <= cy + r; y++) {
            if (x < 0 || y < 0 || x >= f.getWidth() || y >= f.getHeight() || Math.hypot(x - cx, y - cy) > r) continue;
            int rgb = f.getRGB(x, y);
            sr += (rgb >> 16) & 255;
            sg += (rgb >> 8) & 255;
            sb += rgb & 255;
            n++;
        }
        return (int) (sr / n) << 16 | (int) (sg / n) << 8 | (int) (sb / n);
    }

    private static int distance(int a, int b) {
        return Math.abs(((a >> 16) & 255) - ((b >> 16) & 255)) + Math.abs(((a >> 8) & 255) - ((b >> 8) & 255)) + Math.abs((a & 255) - (b & 255));
    }
}
