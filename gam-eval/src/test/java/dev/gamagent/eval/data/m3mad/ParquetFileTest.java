package dev.gamagent.eval.data.m3mad;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Parquet reader on a file DuckDB wrote (resources m3mad/make-sources.mjs): dictionary-encoded strings and lists
 * in GZIP pages, null and empty lists, null strings — the encodings pyarrow (Hugging Face's writer) uses for strings.
 */
class ParquetFileTest {
    @Test void dictionaryEncodedGzipColumnsWithNullAndEmptyListsReadAsWritten() throws Exception {
        ParquetFile f = ParquetFile.open(Path.of(ParquetFileTest.class.getResource("/m3mad/sources/dictionary-gzip.parquet").toURI()));
        assertThat(f.rows()).isEqualTo(300);
        assertThat(f.fields()).containsExactly("id", "colour", "tags", "q");
        List<Object> id = f.column("id", r -> true), colour = f.column("colour", r -> true), tags = f.column("tags", r -> true),
                q = f.column("q", r -> true);
        String[] colours = {"red", "green", "blue"};
        List<String> xyx = List.of("x", "y", "x");
        for (int i = 0; i < 300; i++) {
            assertThat(id.get(i)).isEqualTo((long) i);
            assertThat(colour.get(i)).as("row " + i).isEqualTo(colours[i % 3]);
            assertThat(tags.get(i)).as("row " + i).isEqualTo(i % 5 == 0 ? null : new ArrayList<>(xyx.subList(0, i % 4)));
            assertThat(q.get(i)).as("row " + i).isEqualTo(i % 7 == 0 ? null : "q" + (i % 4));
        }
        List<Object> some = f.column("colour", r -> r == 299);
        assertThat(some.get(298)).isNull();
        assertThat(some.get(299)).isEqualTo("blue");
    }
}
