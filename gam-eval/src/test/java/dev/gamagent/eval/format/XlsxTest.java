package dev.gamagent.eval.format;

import dev.gamagent.eval.grade.PredictionFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The .xlsx reader on a workbook written here part by part (shared and inline strings, rich text, numbers, gaps). */
class XlsxTest {
    @TempDir Path dir;

    private static final String NS = "xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"";

    private Path workbook(String sheetPath, Map<String, String> parts) throws IOException {
        Path f = dir.resolve("book.xlsx");
        try (OutputStream out = Files.newOutputStream(f); ZipOutputStream zip = new ZipOutputStream(out)) {
            for (var e : parts.entrySet()) {
                zip.putNextEntry(new ZipEntry(e.getKey()));
                zip.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
        return f;
    }

    @Test void readsEveryCellKindVlmEvalKitFilesUse() throws IOException {
        String shared = "<sst " + NS + "><si><t>index</t></si><si><t>prediction</t></si>"
                + "<si><r><t>rich </t></r><r><rPr><b/></rPr><t xml:space=\"preserve\">text\t</t></r><rPh><t>ignored</t></rPh></si>"
                + "<si><t>(1) Open the _x005F_x0008_ fridge</t></si><si><t>中文 &amp; &lt;b&gt;</t></si></sst>";
        String sheet = "<worksheet " + NS + "><sheetData>"
                + "<row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c><c r=\"B1\" t=\"s\"><v>1</v></c><c r=\"C1\" t=\"inlineStr\"><is><t>C</t></is></c></row>"
                + "<row r=\"2\"><c r=\"A2\"><v>7</v></c><c r=\"B2\" t=\"s\"><v>2</v></c><c r=\"C2\"><v>2.5</v></c></row>"
                + "<row r=\"4\"><c r=\"A4\"><v>1E+3</v></c><c r=\"C4\" t=\"b\"><v>1</v></c></row>"
                + "<row r=\"5\"><c r=\"A5\" t=\"e\"><v>#N/A</v></c><c r=\"B5\" t=\"s\"><v>3</v></c><c r=\"C5\" t=\"s\"><v>4</v></c></row>"
                + "</sheetData></worksheet>";
        Path f = workbook("xl/worksheets/data.xml", Map.of(
                "xl/workbook.xml", "<workbook " + NS + " xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\">"
                        + "<sheets><sheet name=\"S\" sheetId=\"1\" r:id=\"rId7\"/></sheets></workbook>",
                "xl/_rels/workbook.xml.rels", "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
                        + "<Relationship Id=\"rId7\" Type=\"worksheet\" Target=\"worksheets/data.xml\"/></Relationships>",
                "xl/sharedStrings.xml", shared,
                "xl/worksheets/data.xml", sheet));
        List<List<Object>> rows = Xlsx.readFirstSheet(f);
        assertThat(rows).hasSize(5);
        assertThat(rows.get(0)).containsExactly("index", "prediction", "C");
        assertThat(rows.get(1)).containsExactly(7L, "rich text\t", 2.5);
        assertThat(rows.get(2)).isEmpty(); // row 3 is absent from the XML
        assertThat(rows.get(3)).containsExactly(1000L, null, true);
        // an error cell is missing; "x005F_" goes as openpyxl drops it, the other escape stays
        assertThat(rows.get(4)).containsExactly(null, "(1) Open the _x0008_ fridge", "中文 & <b>");
    }

    @Test void aPredictionFileKeepsPandasTypingAndSortsByIndex() throws IOException {
        String sheet = "<worksheet " + NS + "><sheetData>"
                + "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>index</t></is></c><c r=\"B1\" t=\"inlineStr\"><is><t>A</t></is></c>"
                + "<c r=\"C1\" t=\"inlineStr\"><is><t>B</t></is></c></row>"
                + "<row r=\"2\"><c r=\"A2\"><v>10</v></c><c r=\"B2\"><v>3</v></c><c r=\"C2\"><v>4</v></c></row>"
                + "<row r=\"3\"><c r=\"A3\"><v>2</v></c><c r=\"B3\"><v>5</v></c></row>"
                + "</sheetData></worksheet>";
        Path f = workbook("xl/worksheets/sheet1.xml", Map.of("xl/worksheets/sheet1.xml", sheet));
        PredictionFile pf = PredictionFile.read(f);
        assertThat(pf.rows().stream().map(r -> r.get("index")).toList()).containsExactly("2", "10");
        // column B has a missing cell, so pandas makes it float64: VLMEvalKit compares against "4.0"
        assertThat(pf.rows().get(1)).containsEntry("A", "3").containsEntry("B", "4.0");
        assertThat(pf.rows().get(0).get("B")).isNull();
        assertThat(Arrays.asList(pf.columns().toArray())).containsExactly("index", "A", "B");
    }

    @Test void aFileThatIsNoWorkbookIsNamedInTheError() throws IOException {
        Path f = Files.writeString(dir.resolve("fake.xlsx"), "index\tprediction\n");
        assertThatThrownBy(() -> Xlsx.readFirstSheet(f)).hasMessageContaining("fake.xlsx").hasMessageContaining("not an .xlsx");
        Path empty = workbook("x", Map.of("docProps/app.xml", "<x/>"));
        assertThatThrownBy(() -> Xlsx.readFirstSheet(empty)).hasMessageContaining("book.xlsx").hasMessageContaining("sheet1.xml");
    }

    @Test void sharedStringsPastTheMemoryBudgetAreReadBackFromATemporaryFile() throws IOException {
        // issue 25: the whole string table was held in memory; it is now bounded and the rest kept on disk
        StringBuilder shared = new StringBuilder("<sst " + NS + ">");
        StringBuilder sheet = new StringBuilder("<worksheet " + NS + "><sheetData>");
        for (int i = 0; i < 2000; i++) {
            shared.append("<si><t>answer ").append(i).append(" \u00e9t\u00e9 ").append("x".repeat(i % 37)).append("</t></si>");
            sheet.append("<row r=\"").append(i + 1).append("\"><c r=\"A").append(i + 1).append("\" t=\"s\"><v>").append(1999 - i)
                    .append("</v></c><c r=\"B").append(i + 1).append("\"><v>").append(i).append("</v></c></row>");
        }
        Path f = workbook("xl/worksheets/sheet1.xml", Map.of("xl/sharedStrings.xml", shared.append("</sst>").toString(),
                "xl/worksheets/sheet1.xml", sheet.append("</sheetData></worksheet>").toString()));
        List<List<Object>> whole = Xlsx.readFirstSheet(f);
        List<List<Object>> bounded = new java.util.ArrayList<>();
        Xlsx.forEachRow(f, 1000, bounded::add);
        assertThat(bounded).isEqualTo(whole).hasSize(2000);
        assertThat(bounded.get(0)).containsExactly("answer 1999 \u00e9t\u00e9 " + "x".repeat(1999 % 37), 0L);
        try (SharedStrings s = new SharedStrings(1000)) {
            for (int i = 0; i < 500; i++) s.add("string " + i);
            assertThat(s.size()).isEqualTo(500);
            assertThat(s.held()).isLessThan(120);
            assertThat(s.get(3)).isEqualTo("string 3");
            assertThat(s.get(499)).isEqualTo("string 499");
        }
    }
}
