package dev.gamagent.eval.recipe;

import dev.gamagent.backend.BackendSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 41 item 1: who answered. The built-in model behind any URL is never the paper's model; a server that answers as
 * another model than the paper's is not the paper's model either; a dated snapshot of {@code --model} and one of the paper
 * model's own names are.
 */
class ModelRunTest {
    private final Recipe recipe = RecipeCatalogue.builtIn().require("gam-agent-debate-rounds");
    private final Recipe.Model qwen = PaperTable.matchModel(recipe, "Qwen/Qwen2.5-VL-7B-Instruct");

    private static BackendSpec openai(String model) {
        return new BackendSpec("openai", List.of("http://127.0.0.1:9/v1"), model, null, null, 0, 0, null, null, null);
    }

    private ModelRun.Who who(String model, List<String> listed, List<String> replied) {
        List<ModelRun.Served> served = listed == null ? List.of() : List.of(new ModelRun.Served("http://127.0.0.1:9/v1", listed, false));
        return new ModelRun.Who(openai(model), served, replied);
    }

    @Test void theBuiltInModelBehindAUrlIsNeverThePapersModel() {
        ModelRun.Who listed = who("Qwen/Qwen2.5-VL-7B-Instruct", List.of("gam-perception"), List.of());
        assertThat(listed.notPaperModel(recipe, qwen)).startsWith("the built-in model (gam-perception) served at http://127.0.0.1:9/v1");
        assertThat(listed.differs()).contains("says it serves gam-perception, not --model Qwen/Qwen2.5-VL-7B-Instruct");
        // a server that lists nothing but replies as the built-in model
        ModelRun.Who replied = who("Qwen/Qwen2.5-VL-7B-Instruct", null, List.of("gam-perception"));
        assertThat(replied.notPaperModel(recipe, qwen)).startsWith("the built-in model");
        // and with no paper model matched at all
        assertThat(replied.notPaperModel(recipe, null)).startsWith("the built-in model");
    }

    @Test void aServerAnsweringAsAnotherModelIsNotThePapersButItsOwnNamesAndSnapshotsAre() {
        assertThat(who("Qwen/Qwen2.5-VL-7B-Instruct", List.of("llava-hf/llava-1.5-7b-hf"), List.of()).notPaperModel(recipe, qwen))
                .isEqualTo("the server answers as llava-hf/llava-1.5-7b-hf, not Qwen/Qwen2.5-VL-7B-Instruct");
        ModelRun.Who same = who("Qwen/Qwen2.5-VL-7B-Instruct", List.of("Qwen/Qwen2.5-VL-7B-Instruct"), List.of("Qwen/Qwen2.5-VL-7B-Instruct"));
        assertThat(same.notPaperModel(recipe, qwen)).isNull();
        assertThat(same.differs()).isNull();
        // an alias of the same paper model (ollama's tag) and a dated snapshot of --model are the same model
        assertThat(who("Qwen/Qwen2.5-VL-7B-Instruct", List.of("qwen2.5vl:7b"), List.of()).notPaperModel(recipe, qwen)).isNull();
        assertThat(who("qwen2.5-vl-7b-instruct", null, List.of("qwen2.5-vl-7b-instruct-20250101")).notPaperModel(recipe, qwen)).isNull();
        // nothing said (a server that lists no models, no reply yet): nothing against it
        assertThat(who("Qwen/Qwen2.5-VL-7B-Instruct", null, List.of()).notPaperModel(recipe, qwen)).isNull();
    }

    @Test void aDryRunAsksNoServer() {
        ModelRun.Who w = ModelRun.unasked(openai("x"));
        assertThat(w.served()).isEmpty();
        assertThat(w.differs()).isNull();
    }
}
