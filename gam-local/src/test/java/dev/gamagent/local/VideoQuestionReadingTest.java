package dev.gamagent.local;

import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;
import dev.gamagent.bench.RenderStyle;
import dev.gamagent.bench.VideoPhrasings;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The model tells a question about time from its words and options, in each of the video family's 28 phrasings
 * (written before the model's video code), and reads no image question of the benchmark as one.
 */
class VideoQuestionReadingTest {
    static final Map<VideoPhrasings.Kind, QuestionFamily.VideoKind> KINDS = Map.of(VideoPhrasings.Kind.DIRECTION, QuestionFamily.VideoKind.MOTION,
            VideoPhrasings.Kind.BLINKS, QuestionFamily.VideoKind.BLINKS, VideoPhrasings.Kind.FIRST, QuestionFamily.VideoKind.FIRST,
            VideoPhrasings.Kind.LAST, QuestionFamily.VideoKind.LAST);

    static List<String> options(VideoPhrasings.Kind kind) {
        return switch (kind) {
            case DIRECTION -> List.of("left", "up", "right", "down");
            case BLINKS -> List.of("2", "3", "1", "4");
            case FIRST, LAST -> List.of("red circle", "blue star", "gray hexagon");
        };
    }

    @Test
    void everyPhrasingIsReadAsItsKindWithItsObject() {
        int read = 0;
        for (VideoPhrasings.Kind kind : VideoPhrasings.Kind.values()) {
            for (String template : VideoPhrasings.of(kind)) {
                String q = template.replace("{obj}", "orange triangle").replace("{color}", "green");
                QuestionFamily f = QuestionReader.recognize(q, options(kind));
                assertThat(f).as(q).isInstanceOf(QuestionFamily.Video.class);
                QuestionFamily.Video v = (QuestionFamily.Video) f;
                assertThat(v.kind()).as(q).isEqualTo(KINDS.get(kind));
                if (kind == VideoPhrasings.Kind.DIRECTION) assertThat(v.obj()).as(q).isEqualTo(new QuestionFamily.Obj("orange", "triangle"));
                if (kind == VideoPhrasings.Kind.BLINKS) assertThat(v.obj().color()).as(q).isEqualTo("green");
                read++;
            }
        }
        assertThat(read).isEqualTo(28);
    }

    @Test
    void noImageQuestionOfTheBenchmarkIsReadAsAboutTime() {
        List<BenchItem> items = BenchmarkGenerator.withMix(4242, 0.5, RenderStyle.Render.VARIED).questions(150, Arrays.asList(Family.values()));
        List<String> misread = new ArrayList<>();
        for (BenchItem it : items) {
            if (QuestionReader.recognize(it.question(), new ArrayList<>(it.options().values())) instanceof QuestionFamily.Video) misread.add(it.question());
        }
        assertThat(misread).isEmpty();
        // A relation between two objects with direction options is no motion; a count of lamps is no blink count.
        assertThat(QuestionReader.recognize("Which way does the red circle lie from the blue square?", List.of("left", "right", "up", "down")))
                .isNotInstanceOf(QuestionFamily.Video.class);
        assertThat(QuestionReader.recognize("How many lamps are there?", List.of("1", "2", "3"))).isNotInstanceOf(QuestionFamily.Video.class);
    }
}
