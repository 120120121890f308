package dev.gamagent.local;

import dev.gamagent.local.QuestionFamily.Chart;
import dev.gamagent.local.QuestionFamily.ChartKind;
import dev.gamagent.local.QuestionFamily.Obj;
import dev.gamagent.local.QuestionFamily.Relation;
import dev.gamagent.local.QuestionFamily.Spatial;
import org.junit.jupiter.api.Test;

import static dev.gamagent.local.QuestionReader.recognize;
import static org.assertj.core.api.Assertions.assertThat;

class QuestionFamilyTest {
    @Test
    void textQuestionsAreRecognisedWithWhichTextToPrefer() {
        assertThat(recognize("What word is written on the sign?")).isEqualTo(new QuestionFamily.Text(QuestionFamily.TextKind.SIGN));
        assertThat(recognize("What does the label say?")).isEqualTo(new QuestionFamily.Text(QuestionFamily.TextKind.LABEL));
        assertThat(recognize("What is written in the small print?")).isEqualTo(new QuestionFamily.Text(QuestionFamily.TextKind.SMALL_PRINT));
    }

    @Test
    void countQuestionsNameTheirShapeOrColour() {
        assertThat(recognize("How many circles are there in the image?")).isEqualTo(new QuestionFamily.Count("circle", null));
        assertThat(recognize("How many red objects are there in the image?")).isEqualTo(new QuestionFamily.Count(null, "red"));
        assertThat(recognize("How many objects are there in the image?")).isEqualTo(new QuestionFamily.Count(null, null));
        assertThat(recognize("how many hexagons are there in the image")).isEqualTo(new QuestionFamily.Count("hexagon", null));
    }

    @Test
    void attributeQuestionsAreRecognised() {
        assertThat(recognize("What color is the triangle?")).isEqualTo(new QuestionFamily.Color("triangle"));
        assertThat(recognize("What colour is the star?")).isEqualTo(new QuestionFamily.Color("star"));
        assertThat(recognize("What shape is the purple object?")).isEqualTo(new QuestionFamily.Shape("purple"));
    }

    @Test
    void spatialQuestionsNameTheirObjects() {
        assertThat(recognize("Which object is to the left of the red circle?"))
                .isEqualTo(new Spatial(Relation.LEFT_OF, new Obj("red", "circle"), null));
        assertThat(recognize("Which object is above the blue square?"))
                .isEqualTo(new Spatial(Relation.ABOVE, new Obj("blue", "square"), null));
        assertThat(recognize("Which object is nearest to the green star?"))
                .isEqualTo(new Spatial(Relation.NEAREST, new Obj("green", "star"), null));
        assertThat(recognize("Is the red circle to the left of or to the right of the yellow hexagon?"))
                .isEqualTo(new Spatial(Relation.LEFT_OR_RIGHT, new Obj("red", "circle"), new Obj("yellow", "hexagon")));
        assertThat(recognize("Is the gray triangle above or below the black star?"))
                .isEqualTo(new Spatial(Relation.ABOVE_OR_BELOW, new Obj("gray", "triangle"), new Obj("black", "star")));
    }

    @Test
    void chartQuestionsCarryTheirLabels() {
        assertThat(recognize("Which bar is the tallest?")).isEqualTo(new Chart(ChartKind.TALLEST, null, null));
        assertThat(recognize("Which bar is the shortest?")).isEqualTo(new Chart(ChartKind.SHORTEST, null, null));
        assertThat(recognize("What is the value of the bar labeled Q3?")).isEqualTo(new Chart(ChartKind.VALUE, "Q3", null));
        assertThat(recognize("Which is larger, ab or cd?")).isEqualTo(new Chart(ChartKind.LARGER, "ab", "cd"));
    }

    @Test
    void otherQuestionsAreUnknown() {
        assertThat(recognize("Why is the man smiling?")).isInstanceOf(QuestionFamily.Unknown.class);
        assertThat(recognize("What color is the sky?")).isInstanceOf(QuestionFamily.Unknown.class);
        assertThat(recognize("How many people are there in the image?")).isInstanceOf(QuestionFamily.Unknown.class);
    }
}
