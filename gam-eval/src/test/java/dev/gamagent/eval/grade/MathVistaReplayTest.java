package dev.gamagent.eval.grade;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real MathVista replies (a subset of eight models' testmini outputs, realdata/mathvista-judge, NOTICE item 4) graded by
 * the judge path with each reply's recorded extraction as the judge's answer: the verdicts are MathVista's recorded
 * ones but for the known classes of difference between VLMEvalKit's grading and MathVista's own scoring (docs/metrics.md);
 * bench/mathvista-judge.sh prints the same figures for all 8,000 replies.
 */
class MathVistaReplayTest {
    private static List<MathVistaReplay.Row> rows() throws Exception {
        List<MathVistaReplay.Entry> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("gam-eval/src/test/resources/realdata/mathvista-judge"))) {
            for (Path f : files.sorted().toList()) all.addAll(MathVistaReplay.load(f));
        }
        return MathVistaReplay.grade(all);
    }

    @Test void theJudgePathGivesTheRecordedVerdictsButForTheKnownClassesOfDifference() throws Exception {
        List<MathVistaReplay.Row> rows = rows();
        assertThat(rows).hasSize(123);
        assertThat(rows.stream().filter(MathVistaReplay.Row::judgedAgrees).count()).isEqualTo(110);
        Map<String, Integer> classes = new TreeMap<>();
        for (var r : rows) if (!r.judgedAgrees()) classes.merge(MathVistaReplay.disagreement(r).replaceFirst(":.*", ""), 1, Integer::sum);
        assertThat(classes).containsExactlyInAnyOrderEntriesOf(Map.of("multi_choice", 10, "integer", 2, "float", 1));
        assertThat(rows.stream().filter(r -> !r.judgedAgrees()).map(MathVistaReplay::disagreement)).noneMatch(c -> c.endsWith("other"));
        // post_check on the recorded extraction alone
        assertThat(rows.stream().filter(MathVistaReplay.Row::postCheckAgrees).count()).isEqualTo(113);
        // the judge was asked where VLMEvalKit asks it: every reply its rules leave, and only those
        assertThat(rows.stream().mapToInt(MathVistaReplay.Row::judgeCalls).sum()).isEqualTo(94);
        assertThat(rows.stream().filter(r -> r.judgeCalls() > 0)).allMatch(r -> r.judged().rule().startsWith("mathvista:judge"));
    }

    @Test void aListAnswerIsNeverRightOnVlmEvalKitsJudgePathAsItsPostCheckComparesStrOfNone() throws Exception {
        var lists = rows().stream().filter(r -> r.entry().answerType().equals("list")).toList();
        assertThat(lists).hasSize(16);
        assertThat(lists).allMatch(r -> r.judged().outcome() != Outcome.CORRECT);
        // all sixteen are wrong in MathVista's record too, so they agree
        assertThat(lists).allMatch(MathVistaReplay.Row::judgedAgrees);
    }

    @Test void withoutAJudgeTheRulesLeaveMostRepliesUndecided() throws Exception {
        List<MathVistaReplay.Row> rows = rows();
        long undecided = rows.stream().filter(r -> r.prefetch().outcome() == Outcome.UNMATCHED && !r.prefetch().rule().endsWith(":refusal")).count();
        assertThat(undecided).isEqualTo(91);
        assertThat(rows.stream().filter(r -> r.prefetch().rule().equals("mathvista:needs-judge")).count()).isEqualTo(47);
    }
}
