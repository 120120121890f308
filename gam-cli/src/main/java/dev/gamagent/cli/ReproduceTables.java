package dev.gamagent.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.cli.ReproduceBill.Planned;
import dev.gamagent.eval.recipe.ModelRun;
import dev.gamagent.eval.recipe.PaperTable;
import dev.gamagent.eval.recipe.Recipe;
import dev.gamagent.eval.report.Provenance;
import dev.gamagent.util.Json;

import java.util.List;
import java.util.Map;

/** What a reproduction's paper table says of who answered and where each column's figures come from, and its runs' paper figures. */
final class ReproduceTables {
    private ReproduceTables() { }

    /** Why the model run is not the paper's model: what the server and replies say, else a paper model picked by hand; null: it is. */
    static String notPaper(ModelRun.Who who, Recipe r, Recipe.Model matched, String byHand) {
        String why = who.notPaperModel(r, matched);
        return why != null ? why : byHand;
    }

    /** The table's sources: the served models when they are not --model alone, and each column's provenance so far. */
    static PaperTable.Sources sources(ModelRun.Who who, Map<String, Provenance> provenance) {
        return new PaperTable.Sources(who.differs() != null ? who.servedModels() : List.of(), provenance);
    }

    /**
     * The run's {@code paper_figures} (in its summary and report): per row of this benchmark, our method, our figure and
     * the paper's (with the model and whether it is the model run), so that reports can mark the paper's figures.
     */
    static ObjectNode paperFigures(Planned p, ModelRun.Who who, PaperTable table) {
        String column = table.columns().stream().filter(c -> c.replace("†", "").equals(p.run().benchmark().column())).findFirst().orElse(null);
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("recipe", table.recipe());
        o.put("column", p.run().benchmark().column());
        if (p.run().standIn() != null) o.put("stand_in", p.run().standIn());
        o.put("paper_model", table.paperModel());
        o.put("paper_is_model_run", table.paperIsModelRun());
        o.put("label", table.paperLabel());
        // who answered: the model asked for, and what the server and its replies named
        o.put("model_requested", who.spec().model());
        o.set("served_models", Json.MAPPER.valueToTree(who.servedModels()));
        ArrayNode rows = o.putArray("rows");
        for (Recipe.MethodRow row : p.run().rows()) {
            PaperTable.Cell cell = table.cells().stream().filter(c -> c.row().equals(row.row()) && c.column().equals(column)).findFirst().orElse(null);
            ObjectNode n = rows.addObject();
            n.put("row", row.row());
            n.put("method", row.method());
            if (p.run().sweep() != null && row.settings().containsKey("gam.max_rounds")) n.set("max_rounds", row.settings().get("gam.max_rounds"));
            if (cell != null && cell.ours() != null) n.put("ours", cell.ours());
            if (cell != null && cell.paper() != null) n.put("paper", cell.paper());
        }
        return o;
    }
}
