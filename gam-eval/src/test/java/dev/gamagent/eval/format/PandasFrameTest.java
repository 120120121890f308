package dev.gamagent.eval.format;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Values as VLMEvalKit's pandas code sees them: NA strings, column types, Python's str() and repr(). */
class PandasFrameTest {
    @Test void floatsPrintAsPythonReprDoes() {
        // each expected string is what Python 3 prints for repr(x)
        assertThat(PandasFrame.repr(0.44266666666666665)).isEqualTo("0.44266666666666665");
        assertThat(PandasFrame.repr(2.0 / 3)).isEqualTo("0.6666666666666666");
        assertThat(PandasFrame.repr(0.1)).isEqualTo("0.1");
        assertThat(PandasFrame.repr(1.0)).isEqualTo("1.0");
        assertThat(PandasFrame.repr(0.0001)).isEqualTo("0.0001");
        assertThat(PandasFrame.repr(0.00001)).isEqualTo("1e-05");
        assertThat(PandasFrame.repr(1234567890123456.0)).isEqualTo("1234567890123456.0");
        assertThat(PandasFrame.repr(1e16)).isEqualTo("1e+16");
        assertThat(PandasFrame.repr(123456789012345680.0)).isEqualTo("1.2345678901234568e+17");
        assertThat(PandasFrame.repr(-2.5e-7)).isEqualTo("-2.5e-07");
        assertThat(PandasFrame.repr(5e-324)).isEqualTo("5e-324");
        assertThat(PandasFrame.repr(-0.0)).isEqualTo("-0.0");
        assertThat(PandasFrame.repr(Double.NaN)).isEqualTo("nan");
        // Java 17's Double.toString gives 2.0E-3 and, for some values, more digits than needed
        assertThat(PandasFrame.repr(0.002)).isEqualTo("0.002");
        assertThat(PandasFrame.repr(1.0E23)).isEqualTo("1e+23");
    }

    @Test void pandasDefaultNaStringsAreMissing() {
        assertThat(PandasFrame.column(Arrays.asList("None", "N/A", "nan", "", null, "A"))).containsExactly(null, null, null, null, null, "A");
        assertThat(PandasFrame.column(Arrays.asList("none", "NONE"))).containsExactly("none", "NONE"); // only the exact spellings
    }

    @Test void anAllNumericColumnIsTypedAndAMissingValueMakesItFloat() {
        assertThat(PandasFrame.column(Arrays.asList("1", "2", "30"))).containsExactly("1", "2", "30");
        assertThat(PandasFrame.column(Arrays.asList("1", "2", null))).containsExactly("1.0", "2.0", null);
        assertThat(PandasFrame.column(Arrays.asList(1L, 2.5, null))).containsExactly("1.0", "2.5", null);
        assertThat(PandasFrame.column(Arrays.asList("1.50", "2"))).containsExactly("1.5", "2.0");
        // one text value keeps the column as objects: each value prints as itself
        assertThat(PandasFrame.column(Arrays.asList(1L, "x", 2.5, "3"))).containsExactly("1", "x", "2.5", "3");
        assertThat(PandasFrame.column(Arrays.asList("True", "false", null))).containsExactly("True", "False", null);
        assertThat(PandasFrame.column(Arrays.asList(true, "x"))).containsExactly("True", "x");
    }

    @Test void columnNamesAreLowerCasedExceptOptionLetters() {
        PandasFrame f = PandasFrame.of(List.of(List.of("Index", "A", "b", "L2-Category", "Prediction"), List.of(1L, "x", "y", "z", "A")));
        assertThat(f.columns()).containsExactly("index", "A", "b", "l2-category", "prediction");
        assertThat(f.rows().get(0)).containsEntry("A", "x").containsEntry("prediction", "A");
    }
}
