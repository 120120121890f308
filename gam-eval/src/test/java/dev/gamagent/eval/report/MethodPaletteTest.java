package dev.gamagent.eval.report;

import dev.gamagent.MethodRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The method colours every page uses (web/colors.js, the one source): any two differ by CIEDE2000 ΔE ≥ 15 in normal vision
 * and under simulated deuteranopia and protanopia, so a page of up to eight of them keeps them apart (issue 42, item 4).
 */
public class MethodPaletteTest {
    static final double MIN_DELTA_E = 15;

    /** METHOD_COLORS as colors.js writes it: {@code name: '#RRGGBB'} pairs inside its object literal. */
    public static Map<String, String> methodColours() {
        String js = HtmlReport.resource("colors.js");
        int start = js.indexOf("const METHOD_COLORS = Object.freeze({");
        assertThat(start).as("colors.js defines METHOD_COLORS").isNotNegative();
        String body = js.substring(start, js.indexOf("})", start));
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = Pattern.compile("'?([a-z0-9+-]+)'?\\s*:\\s*'(#[0-9A-Fa-f]{6})'").matcher(body);
        while (m.find()) out.put(m.group(1), m.group(2));
        return out;
    }

    @Test void everyTwoMethodColoursDifferByFifteenForNormalDeuteranAndProtanReaders() {
        Map<String, String> colours = methodColours();
        assertThat(colours).hasSizeGreaterThanOrEqualTo(12);
        List<String> close = new ArrayList<>();
        double least = Double.MAX_VALUE;
        List<String> names = new ArrayList<>(colours.keySet());
        for (int i = 0; i < names.size(); i++) {
            for (int j = i + 1; j < names.size(); j++) {
                for (ColourDifference.Vision v : ColourDifference.Vision.values()) {
                    double d = ColourDifference.deltaE(colours.get(names.get(i)), colours.get(names.get(j)), v);
                    least = Math.min(least, d);
                    if (d < MIN_DELTA_E) close.add(String.format(java.util.Locale.ROOT, "%s %s vs %s %s: ΔE %.1f (%s)", names.get(i),
                            colours.get(names.get(i)), names.get(j), colours.get(names.get(j)), d, v));
                }
            }
        }
        assertThat(close).as("pairs closer than ΔE %s (least %.2f)", MIN_DELTA_E, least).isEmpty();
    }

    /** The colours are distinct values (a duplicate would pass a pairwise test only by not being compared) and readable on white. */
    @Test void coloursAreDistinctAndDarkEnoughForWhitePages() {
        Map<String, String> colours = methodColours();
        assertThat(colours.values().stream().map(String::toUpperCase).distinct()).hasSize(colours.size());
        for (var e : colours.entrySet()) {
            assertThat(ColourDifference.lab(e.getValue(), ColourDifference.Vision.NORMAL)[0]).as("%s lightness", e.getKey()).isLessThan(82);
        }
    }

    /** Every method colours.js names is a method users can pick (a typo would leave the real method to the fallback). */
    @Test void everyColouredNameIsAKnownMethodAndTheCommonOnesHaveTheirOwn() {
        List<String> known = MethodRegistry.listed();
        assertThat(known).containsAll(methodColours().keySet());
        // the demo's methods and the golden record's most-run ones keep a colour of their own on every page
        assertThat(methodColours()).containsKeys("single", "vote", "debate", "gam", "dream+gam", "cot", "sc", "mad", "dmad",
                "chateval", "debunc", "self-debate");
    }

    /** No page keeps a palette of its own for methods: they all read colors.js. */
    @Test void noPageDefinesItsOwnMethodPalette() {
        String report = HtmlReport.resource("report.js");
        assertThat(report).contains("window.GamColors").doesNotContain("const PALETTE");
        String page = HtmlReport.page(List.of(new ReportRun("", RunSummary.compute("x.tsv", List.of("gam"), false, 0, List.of(), List.of(),
                PriceTable.from(dev.gamagent.config.Config.defaults()), 0.5, null), List.of())), null, "x").html();
        // indexOf, not AssertJ's containsSubsequence: that one copies the 1.5 MB page once per character it passes
        int colours = page.indexOf("/* colors.js */"), viewer = page.indexOf("/* viewer.js */"), script = page.indexOf("/* report.js */");
        assertThat(colours).as("the page inlines colors.js").isNotNegative();
        assertThat(viewer).as("colors.js comes before the viewer that reads it").isGreaterThan(colours);
        assertThat(script).as("and before report.js").isGreaterThan(viewer);
    }
}
