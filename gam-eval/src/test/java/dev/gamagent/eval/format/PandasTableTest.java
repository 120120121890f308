package dev.gamagent.eval.format;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The index pass's byte-level splitter and UTF-8 check against the text-level parser and the JDK's decoder they
 * replace: the same rows and fields for any text fed in chunks of any size (quotes, tabs, CR/LF cut at chunk edges),
 * and the same first bad byte for any bytes.
 */
class PandasTableTest {
    private static final String[] PIECES = {"a", "b\u00e9", "\u4e2d", "\t", "\n", "\r\n", "\r", "\"", "\"\"", "x\"y", " ", "nan", "12"};

    private static String text(Random r) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(60);
        for (int i = 0; i < n; i++) sb.append(PIECES[r.nextInt(PIECES.length)]);
        return sb.toString();
    }

    private static List<List<String>> scanned(byte[] b, Random r) {
        List<List<String>> rows = new ArrayList<>();
        PandasTable s = new PandasTable('\t', row -> rows.add(row.fields));
        for (int at = 0; at < b.length; ) {
            int n = Math.min(b.length - at, 1 + r.nextInt(5));
            s.feed(b, at, at + n, 0);
            at += n;
        }
        s.end(b.length);
        return rows;
    }

    @Test void theByteSplitterGivesTheTextParsersRowsWhateverTheChunks() {
        Random r = new Random(11);
        for (int i = 0; i < 5000; i++) {
            String t = text(r);
            byte[] b = t.getBytes(StandardCharsets.UTF_8);
            assertThat(scanned(b, r)).as("%s", t.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")).isEqualTo(CharTsv.parse(t));
            List<String> one = PandasTable.fields(b);
            List<List<String>> all = CharTsv.parse(t);
            if (all.size() == 1) assertThat(one).isEqualTo(all.get(0));
        }
    }

    /** The offset of the first byte the JDK's decoder refuses, or -1. */
    private static long firstBad(byte[] b) {
        var dec = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(b);
        var out = java.nio.CharBuffer.allocate(b.length * 2 + 4);
        var res = dec.decode(in, out, true);
        if (res.isError()) return in.position();
        return -1;
    }

    @Test void theUtf8CheckFindsTheFirstBadByteTheJdkDecoderFinds() throws CharacterCodingException {
        Random r = new Random(12);
        for (int i = 0; i < 20000; i++) {
            byte[] b = new byte[r.nextInt(12)];
            for (int k = 0; k < b.length; k++) {
                int kind = r.nextInt(4);
                b[k] = (byte) (kind == 0 ? r.nextInt(128) : kind == 1 ? 0x80 + r.nextInt(64) : kind == 2 ? 0xC0 + r.nextInt(64) : r.nextInt(256));
                if (b[k] == '\n') b[k] = 'n'; // one line: the check keeps the first bad place of each line
            }
            Utf8Scan u = new Utf8Scan();
            int cut = b.length == 0 ? 0 : r.nextInt(b.length + 1);
            u.feed(b, 0, cut, 0);
            u.feed(b, cut, b.length, 0);
            u.end();
            Utf8Scan.BadByte first = u.first();
            assertThat(first == null ? -1 : first.offset()).as(java.util.HexFormat.of().formatHex(b)).isEqualTo(firstBad(b));
        }
    }

    @Test void aCsvTextIsSplitAsTheReferenceSplitsIt() {
        Random r = new Random(5);
        for (int i = 0; i < 2000; i++) {
            String t = text(r).replace('\t', ',');
            assertThat(PandasTable.parse(t, ',')).as("%s", t).isEqualTo(CharTsv.parse(t, ','));
        }
    }

    @Test void whatTheWriterQuotesTheReaderReadsBack() {
        List<String> fields = List.of("plain", "a\tb", "say \"hi\"", "two\nlines", "cr\rhere", "", "x,y", "\u4e2d");
        for (char sep : new char[] {'\t', ','}) {
            StringBuilder line = new StringBuilder();
            for (String f : fields) line.append(line.length() == 0 ? "" : String.valueOf(sep)).append(PandasQuoting.field(f, sep));
            assertThat(PandasTable.parse(line + "\n", sep)).containsExactly(fields);
            StringBuilder all = new StringBuilder();
            for (String f : fields) all.append(all.length() == 0 ? "" : String.valueOf(sep)).append(PandasQuoting.quoted(f));
            assertThat(PandasTable.parse(all.toString(), sep)).containsExactly(fields);
        }
        assertThat(PandasQuoting.field("plain", '\t')).isEqualTo("plain");
        assertThat(PandasQuoting.field("x,y", '\t')).isEqualTo("x,y");
        assertThat(PandasQuoting.field("x,y", ',')).isEqualTo("\"x,y\"");
        assertThat(PandasQuoting.field(null, ',')).isEmpty();
    }

    @Test void columnsAreReadByNameAndTheOthersPassedOver(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        String image = "iVBOR" + "A".repeat(200_000);
        java.nio.file.Path f = java.nio.file.Files.writeString(dir.resolve("b.tsv"),
                " index \timage\tquestion\tcategory\n"
                + "1\t" + image + "\t\"What is\tthis?\"\tOCR\n"
                + "\n"
                + "2\t\"" + image + "\"\tSecond\t\"a \"\"b\"\"\"\n");
        assertThat(PandasTable.columns(f, java.util.Set.of("index", "category")::contains)).containsExactly(
                java.util.Map.of("index", "1", "category", "OCR"), java.util.Map.of("index", "2", "category", "a \"b\""));
        List<java.util.Map<String, String>> allButImage = PandasTable.columns(f, c -> !c.equals("image"));
        assertThat(allButImage).hasSize(2);
        assertThat(allButImage.get(0)).containsExactly(java.util.Map.entry("index", "1"), java.util.Map.entry("question", "What is\tthis?"),
                java.util.Map.entry("category", "OCR"));
    }

    @Test void aSkippedColumnIsNotKept() {
        List<List<String>> rows = new ArrayList<>();
        PandasTable s = new PandasTable('\t', row -> rows.add(row.fields));
        s.skipColumns(c -> c == 1);
        byte[] b = "a\tbig\tc\nd\t\"e\tf\"\tg\n".getBytes(StandardCharsets.UTF_8);
        s.feed(b, 0, b.length, 0);
        s.end(b.length);
        assertThat(rows).containsExactly(java.util.Arrays.asList("a", null, "c"), java.util.Arrays.asList("d", null, "g"));
    }
}
