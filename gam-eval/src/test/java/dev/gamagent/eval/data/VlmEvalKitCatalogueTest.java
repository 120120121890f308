package dev.gamagent.eval.data;

import dev.gamagent.util.Json;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The catalogue against VLMEvalKit's committed tables ({@code datasets/vlmevalkit-e8e78f05.json}, written by
 * {@code bench/vlmevalkit-catalogue.py}): every dataset VLMEvalKit grades by a rule gam implements is an entry with the
 * table's URL, md5 and grading; every other dataset of the table is listed with what it needs; the hand-kept entries
 * of {@code catalogue.json} are unchanged.
 */
class VlmEvalKitCatalogueTest {
    private final DatasetCatalogue c = DatasetCatalogue.builtIn();
    private final VlmEvalKitTable t = VlmEvalKitTable.builtIn();

    @Test void theTableIsOfTheCataloguesCommit() {
        assertThat(t.commit()).isEqualTo(c.vlmEvalKitCommit()).isEqualTo("e8e78f05f3080fe28154f2130321f17951c3be94");
        assertThat(t.rows()).hasSizeGreaterThan(400);
        assertThat(Path.of("bench/vlmevalkit-catalogue.py")).exists();
    }

    @Test void everySupportedNameHasTheTablesUrlMd5AndGrading() {
        int ruleGraded = 0;
        for (VlmEvalKitTable.Row r : t.rows()) {
            DatasetEntry e = c.find(r.name());
            boolean exact = e != null && e.name().equals(r.name());
            if (r.supportedBy(t.supportedGradings())) {
                if (!exact) {
                    // only a name that differs from a known one in case alone stays out, and says so
                    assertThat(c.unsupported()).as(r.name()).anyMatch(u -> u.name().equals(r.name()) && u.needs().contains("only in case"));
                    continue;
                }
                ruleGraded++;
                assertThat(e.url()).as(r.name()).isEqualTo(r.url());
                assertThat(e.md5()).as(r.name()).isEqualTo(r.md5());
                assertThat(e.grading()).as(r.name()).isEqualTo(r.grading());
                assertThat(e.kind()).as(r.name()).isEqualTo("vlmevalkit-tsv");
            } else if (!exact) {
                assertThat(c.unsupported()).as(r.name()).anyMatch(u -> u.name().equals(r.name()) && !u.needs().isBlank());
            }
        }
        assertThat(ruleGraded).as("VLMEvalKit names graded by VLMEvalKit's own rule").isGreaterThanOrEqualTo(135);
        assertThat(c.entries()).as("benchmarks by name").hasSizeGreaterThanOrEqualTo(150);
        // every row is an entry or listed, once
        Set<String> seen = new HashSet<>();
        c.entries().forEach(e -> seen.add(e.name()));
        for (DatasetCatalogue.Unsupported u : c.unsupported()) assertThat(seen.add(u.name())).as(u.name() + " listed twice").isTrue();
        for (VlmEvalKitTable.Row r : t.rows()) assertThat(seen).contains(r.name());
        assertThat(c.unsupported()).anyMatch(u -> u.name().equals("MMVet") && u.needs().startsWith("a judge model"))
                .anyMatch(u -> u.name().equals("Video-MME") && u.needs().startsWith("video"));
    }

    @Test void theHandKeptEntriesAreUnchanged() throws Exception {
        DatasetCatalogue hand;
        try (InputStream in = DatasetCatalogue.class.getResourceAsStream(DatasetCatalogue.RESOURCE)) {
            hand = DatasetCatalogue.parse(Json.MAPPER.readTree(in), "catalogue.json");
        }
        assertThat(hand.entries()).hasSize(38);
        assertThat(c.entries().subList(0, hand.entries().size())).isEqualTo(hand.entries());
        // and those VLMEvalKit grades by a rule gam implements agree with the table (the others are graded by gam's own entries)
        for (DatasetEntry e : hand.entries()) {
            VlmEvalKitTable.Row r = t.find(e.name());
            if (r != null && r.supportedBy(t.supportedGradings())) {
                assertThat(List.of(e.url(), e.md5(), e.grading())).as(e.name()).isEqualTo(List.of(r.url(), r.md5(), r.grading()));
            }
        }
    }

    /**
     * The committed table is what the generator gives: run where VLMEvalKit's git directory is on the machine
     * ({@code VLMEVALKIT_GIT}, or the mirror this project's machines keep); skipped elsewhere.
     */
    @Test void theGeneratorWritesTheCommittedTable() throws Exception {
        String git = System.getenv().getOrDefault("VLMEVALKIT_GIT", "/work/.mirror/open-compass+VLMEvalKit/repo");
        Assumptions.assumeTrue(Files.isDirectory(Path.of(git)), "no VLMEvalKit git directory at " + git);
        Process p = new ProcessBuilder("python3", "bench/vlmevalkit-catalogue.py", "--git", git, "--check").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("identical");
    }
}
