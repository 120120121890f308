package dev.gamagent.eval.data;

import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DatasetCatalogueTest {
    private final DatasetCatalogue c = DatasetCatalogue.builtIn();

    @Test void everyImageBenchmarkOfTheIssueAndBothPapersIsKnownByVlmEvalKitsName() {
        Set<String> names = c.entries().stream().map(DatasetEntry::name).collect(Collectors.toSet());
        for (String n : List.of("MMBench_DEV_EN", "MMBench_DEV_EN_V11", "MMBench_TEST_EN", "MMBench_TEST_EN_V11", "MMMU_DEV_VAL", "MMStar",
                "SEEDBench_IMG", "ScienceQA_TEST", "RealWorldQA", "MathVista_MINI", "MME", "VStarBench", "MathVision", "MME-Reasoning",
                "PathVQA_TEST", "VisualPuzzles", "M3MAD_MME", "M3MAD_MathVista", "M3MAD_MathVision", "M3MAD_PathVQA",
                "M3MAD_MME-reasoning", "M3MAD_VisualPuzzles")) {
            assertTrue(names.contains(n), n + " is missing");
        }
        assertEquals("e8e78f05f3080fe28154f2130321f17951c3be94", c.vlmEvalKitCommit());
    }

    @Test void vlmEvalKitBenchmarksLiveWhereVlmEvalKitPutsThem() {
        DatasetEntry e = c.require("MMBench_DEV_EN");
        assertEquals("MMBench_DEV_EN.tsv", e.file());
        assertEquals("b6caf1133a01c6bb705cf753bb527ed8", e.md5());
        assertEquals("https://opencompass.openxlab.space/utils/benchmarks/MMBench/MMBench_DEV_EN.tsv", e.url());
        assertEquals("M3MAD/MME.json", c.require("M3MAD_MME").file());
    }

    @Test void testSplitsWithoutAnswersNameTheirStandInAndWhereToSubmit() {
        DatasetEntry t = c.require("MMBench_TEST_EN_V11");
        assertTrue(!t.answers());
        assertEquals("MMBench_DEV_EN_V11", t.standIn());
        assertNotNull(t.submitTo());
    }

    @Test void everyEntryHasADownloadOrABuildAndNamesItsSource() {
        for (DatasetEntry e : c.entries()) {
            assertTrue(e.url() != null || e.build() != null, e.name());
            assertNotNull(e.definedIn(), e.name());
        }
    }

    @Test void mvBenchNamesAreSnapshotsOfItsDatasetRepositoryWithoutAnMd5() {
        for (String n : List.of("MVBench_8frame", "MVBench_64frame", "MVBench_MP4_8frame", "MVBench_MP4_1fps")) {
            DatasetEntry e = c.require(n.toLowerCase(java.util.Locale.ROOT));
            assertEquals(n, e.name());
            assertEquals("mvbench-snapshot", e.kind());
            assertEquals("mvbench", e.grading());
            assertEquals(null, e.md5());
            assertTrue(DatasetCatalogue.kind(e.kind(), n).snapshot(), n);
        }
        assertEquals("MVBench", c.require("MVBench_8frame").file());
        assertEquals("MVBench_MP4", c.require("MVBench_MP4_1fps").file());
        var misspelt = assertThrows(IllegalArgumentException.class, () -> DatasetCatalogue.parse(Json.MAPPER.readTree("{\"datasets\": [{\"name\": "
                + "\"MVBench_16frame\", \"kind\": \"mvbench-snapshot\", \"grading\": \"mvbench\", \"url\": \"https://x/\"}]}"), "t"));
        assertTrue(misspelt.getMessage().contains("MVBench_16frame"), misspelt.getMessage());
    }

    @Test void namesAreFoundIgnoringCase() {
        assertEquals("MMStar", c.require("mmstar").name());
    }

    @Test void aCatalogueWithATypoIsRefusedNamingTheEntryAndField() throws Exception {
        var bad = Json.MAPPER.readTree("{\"datasets\": [{\"name\": \"X\", \"kind\": \"vlmevalkit-tsv\", \"grading\": \"open\", "
                + "\"url\": \"https://x/X.tsv\", \"md55\": \"abc\"}]}");
        Exception e = assertThrows(IllegalArgumentException.class, () -> DatasetCatalogue.parse(bad, "t"));
        assertTrue(e.getMessage().contains("'X'") && e.getMessage().contains("md55"), e.getMessage());
        var badMd5 = Json.MAPPER.readTree("{\"datasets\": [{\"name\": \"X\", \"kind\": \"vlmevalkit-tsv\", \"grading\": \"open\", "
                + "\"url\": \"https://x/X.tsv\", \"md5\": \"abc\"}]}");
        assertThrows(IllegalArgumentException.class, () -> DatasetCatalogue.parse(badMd5, "t"));
        var badKind = Json.MAPPER.readTree("{\"datasets\": [{\"name\": \"X\", \"kind\": \"video\", \"grading\": \"open\", \"url\": \"https://x/X\"}]}");
        Exception k = assertThrows(IllegalArgumentException.class, () -> DatasetCatalogue.parse(badKind, "t"));
        assertTrue(k.getMessage().contains("vlmevalkit-tsv"), k.getMessage());
    }

    @Test void downloadsMayGoToTheCatalogueHostsAndWhereHuggingFaceServesItsFilesOnly() {
        DownloadHosts h = DownloadHosts.of(c, null);
        for (String ok : List.of("opencompass.openxlab.space", "huggingface.co", "cdn-lfs.hf.co", "cas-bridge.xethub.hf.co", "cdn-lfs.huggingface.co")) {
            assertTrue(h.allowed(ok), ok);
        }
        for (String no : List.of("evil.example", "hf.co.evil.example", "xhf.co", "openxlab.space", "127.0.0.1")) assertTrue(!h.allowed(no), no);
        assertEquals("the catalogue's hosts huggingface.co, opencompass.openxlab.space, *.hf.co, *.huggingface.co", h.describe());
        assertEquals("the mirror's host 10.1.2.3 and the catalogue's hosts huggingface.co, opencompass.openxlab.space, *.hf.co, *.huggingface.co",
                DownloadHosts.of(c, "http://10.1.2.3:8000/data").describe());
    }

    @Test void aSizeMustBeAPositiveWholeNumberAndARedirectDomainADomain() throws Exception {
        String entry = "{\"datasets\": [{\"name\": \"X\", \"kind\": \"vlmevalkit-tsv\", \"grading\": \"open\", \"url\": \"https://a.example/X.tsv\", \"bytes\": %s}]%s}";
        assertEquals(1234L, DatasetCatalogue.parse(Json.MAPPER.readTree(entry.formatted("1234", "")), "t").require("X").bytes());
        for (String bad : List.of("-1", "0", "1.5", "\"12\"")) {
            Exception e = assertThrows(IllegalArgumentException.class, () -> DatasetCatalogue.parse(Json.MAPPER.readTree(entry.formatted(bad, "")), "t"));
            assertTrue(e.getMessage().contains("is not a positive whole number"), e.getMessage());
        }
        Exception e = assertThrows(IllegalArgumentException.class, () -> DatasetCatalogue.parse(Json.MAPPER.readTree(
                entry.formatted("1", ", \"redirect_domains\": {\"domains\": [\"*.evil\"]}")), "t"));
        assertTrue(e.getMessage().contains("'*.evil' is not a domain name"), e.getMessage());
    }
}
