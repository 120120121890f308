package dev.gamagent.local;

import dev.gamagent.local.QuestionFamily.Chart;
import dev.gamagent.local.QuestionFamily.ChartKind;
import dev.gamagent.local.QuestionFamily.Color;
import dev.gamagent.local.QuestionFamily.Count;
import dev.gamagent.local.QuestionFamily.Obj;
import dev.gamagent.local.QuestionFamily.Place;
import dev.gamagent.local.QuestionFamily.Relation;
import dev.gamagent.local.QuestionFamily.Shape;
import dev.gamagent.local.QuestionFamily.Spatial;
import dev.gamagent.local.QuestionFamily.Text;
import dev.gamagent.local.QuestionFamily.TextKind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The question parser on phrasings other than the generator's templates, with options in any order and case. */
class QuestionReaderTest {
    private static QuestionFamily read(String q, String... options) { return QuestionReader.recognize(q, List.of(options)); }

    @Test
    void colourQuestionsAreReadWhateverTheWordForColour() {
        Color triangle = new Color("triangle");
        assertThat(read("Which colour is the triangle?", "red", "blue")).isEqualTo(triangle);
        assertThat(read("What hue does the triangle have?")).isEqualTo(triangle);
        assertThat(read("The triangle is what color?", "Red", "BLUE")).isEqualTo(triangle);
        assertThat(read("In which shade is the triangles drawn?")).isEqualTo(triangle);
        assertThat(read("Identify the triangle's colour.")).isEqualTo(triangle);
        assertThat(read("What colour is the object?", "red", "green")).isEqualTo(new Color(null, null));
    }

    @Test
    void shapeQuestionsNameTheColourGivenAndAskTheOther() {
        Shape red = new Shape("red");
        assertThat(read("Which shape is red?")).isEqualTo(red);
        assertThat(read("The red figure is which shape?")).isEqualTo(red);
        assertThat(read("What form does the red thing have?")).isEqualTo(red);
        assertThat(read("Which figure is coloured red?", "a circle", "a star")).isEqualTo(red);
        assertThat(read("What's the grey shape?")).isEqualTo(new Shape("gray"));
        assertThat(read("Which shape is shown in the image?", "Circle", "SQUARE", "triangle")).isEqualTo(new Shape(null, null));
    }

    @Test
    void anAttributeQuestionMayPlaceItsObjectInsteadOfNamingIt() {
        assertThat(read("Which shape is on the right?")).isEqualTo(new Shape(null, Place.RIGHT));
        assertThat(read("What colour is the thing on the left?")).isEqualTo(new Color(null, Place.LEFT));
        assertThat(read("What color is the circle at the top?", "red", "blue")).isEqualTo(new Color("circle", Place.TOP));
    }

    @Test
    void countQuestionsMayUseAnyCountingWordsAndNameShapeAndColour() {
        assertThat(read("Count the stars in the picture.", "3", "4")).isEqualTo(new Count("star", null));
        assertThat(read("What is the number of blue items?")).isEqualTo(new Count(null, "blue"));
        assertThat(read("How many things in the picture are green?", "Three", "two", "ONE")).isEqualTo(new Count(null, "green"));
        assertThat(read("What's the total number of objects?")).isEqualTo(new Count(null, null));
        assertThat(read("How many red circles are there?")).isEqualTo(new Count("circle", "red"));
        assertThat(read("Tally up the stars.")).isEqualTo(new Count("star", null));
    }

    @Test
    void relationQuestionsFindTheReferenceObjectWhereverItStands() {
        Obj red = new Obj("red", "circle"), purple = new Obj("purple", "square");
        assertThat(read("Which item lies left of the red circle?", "a purple square", "the blue star"))
                .isEqualTo(new Spatial(Relation.LEFT_OF, red, null));
        assertThat(read("Which shape sits higher up than the red circle?")).isEqualTo(new Spatial(Relation.ABOVE, red, null));
        assertThat(read("What is the red circle's nearest neighbour?", "PURPLE SQUARE", "blue star"))
                .isEqualTo(new Spatial(Relation.NEAREST, red, null));
        assertThat(read("Is the red circle to the left or to the right of the purple square?", "Right", "LEFT"))
                .isEqualTo(new Spatial(Relation.LEFT_OR_RIGHT, red, purple));
        assertThat(read("Relative to the purple square, is the red circle on the left or on the right?", "on the left", "on the right"))
                .isEqualTo(new Spatial(Relation.LEFT_OR_RIGHT, red, purple));
        assertThat(read("Is the red circle higher or lower than the purple square?", "below", "above"))
                .isEqualTo(new Spatial(Relation.ABOVE_OR_BELOW, red, purple));
        assertThat(read("Is the red circle above the purple square or below it?"))
                .isEqualTo(new Spatial(Relation.ABOVE_OR_BELOW, red, purple));
    }

    @Test
    void textQuestionsSayWhichTextToPrefer() {
        assertThat(read("Can you tell me what the sign reads?", "MARKET", "marker")).isEqualTo(new Text(TextKind.SIGN));
        assertThat(read("What's printed on the label?")).isEqualTo(new Text(TextKind.LABEL));
        assertThat(read("What does the fine print say?")).isEqualTo(new Text(TextKind.SMALL_PRINT));
        assertThat(read("Read the tiny writing at the bottom of the card.")).isEqualTo(new Text(TextKind.SMALL_PRINT));
        assertThat(read("What does the poster proclaim?")).isEqualTo(new Text(TextKind.SIGN));
    }

    @Test
    void chartQuestionsTakeTheirLabelsFromTheQuestionOrTheOptions() {
        assertThat(read("Which category has the greatest value?", "apple", "pear")).isEqualTo(new Chart(ChartKind.TALLEST, null, null));
        assertThat(read("What has the least value in the bar chart?")).isEqualTo(new Chart(ChartKind.SHORTEST, null, null));
        assertThat(read("How high is the bar for kiwi?", "20", "25")).isEqualTo(new Chart(ChartKind.VALUE, "kiwi", null));
        assertThat(read("According to the chart, what is Mango's value?")).isEqualTo(new Chart(ChartKind.VALUE, "Mango", null));
        assertThat(read("What is the value of the bar labelled \"Q 3\"?")).isEqualTo(new Chart(ChartKind.VALUE, "Q 3", null));
        assertThat(read("Is kiwi or berry larger?", "BERRY", "KIWI")).isEqualTo(new Chart(ChartKind.LARGER, "KIWI", "BERRY"));
        assertThat(read("Between fig and lime, which bar is shorter?")).isEqualTo(new Chart(ChartKind.SMALLER, "fig", "lime"));
    }

    @Test
    void optionsAreClassifiedWhateverTheirCaseAndArticles() {
        assertThat(OptionKind.of(List.of("Red", "BLUE", "green"))).isEqualTo(OptionKind.COLOR);
        assertThat(OptionKind.of(List.of("a circle", "The Star"))).isEqualTo(OptionKind.SHAPE);
        assertThat(OptionKind.of(List.of("the red circle", "A PURPLE SQUARE"))).isEqualTo(OptionKind.OBJECT);
        assertThat(OptionKind.of(List.of("Left", "on the right"))).isEqualTo(OptionKind.DIRECTION);
        assertThat(OptionKind.of(List.of("3", "four", "One"))).isEqualTo(OptionKind.NUMBER);
        assertThat(OptionKind.of(List.of("market", "marker"))).isEqualTo(OptionKind.WORD);
        assertThat(OptionKind.direction("To the LEFT of")).isEqualTo("left");
        assertThat(OptionKind.direction("higher")).isEqualTo("above");
        assertThat(OptionKind.direction("bluer")).isNull();
    }

    @Test
    void questionsAboutWhatThisModelCannotPerceiveAreUnknown() {
        assertThat(read("Why is the triangle sad?", "red", "blue")).isInstanceOf(QuestionFamily.Unknown.class);
        assertThat(read("What colour is the sky?", "blue", "gray")).isInstanceOf(QuestionFamily.Unknown.class);
        assertThat(read("How many people are in the picture?")).isInstanceOf(QuestionFamily.Unknown.class);
        assertThat(read("Which shape is not red?", "circle", "star")).isInstanceOf(QuestionFamily.Unknown.class);
        assertThat(read("What colour is the rectangle?")).isInstanceOf(QuestionFamily.Unknown.class);
        assertThat(read("How many pink objects are there?")).isInstanceOf(QuestionFamily.Unknown.class);
        assertThat(read("How many circles are left of the square?")).isInstanceOf(QuestionFamily.Unknown.class);
        assertThat(read("Pick one.", "red", "blue")).isInstanceOf(QuestionFamily.Unknown.class);
        assertThat(read("")).isInstanceOf(QuestionFamily.Unknown.class);
    }

    @Test
    void wordsThatAreNotReadLowerTheClarityOfTheReading() {
        QuestionReader.Reading clear = QuestionReader.read("What colour is the triangle?", List.of("red", "blue"));
        assertThat(clear.clarity()).isEqualTo(1.0);
        QuestionReader.Reading fuzzy = QuestionReader.read("What colour is the triangle, roughly speaking, in daylight?", List.of("red", "blue"));
        assertThat(fuzzy.family()).isEqualTo(new Color("triangle"));
        assertThat(fuzzy.unread()).containsExactly("speaking", "daylight");
        assertThat(fuzzy.clarity()).isEqualTo(0.25);
    }
}
