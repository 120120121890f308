package dev.gamagent.cli;

import dev.gamagent.eval.data.DataException;
import dev.gamagent.eval.data.DataFiles;
import dev.gamagent.eval.data.DatasetCatalogue;
import dev.gamagent.eval.data.DatasetEntry;
import dev.gamagent.eval.data.Downloader;
import dev.gamagent.eval.data.m3mad.M3madBuilder;
import dev.gamagent.eval.data.m3mad.M3madSet;
import dev.gamagent.eval.load.mvbench.MvBenchCheck;
import dev.gamagent.eval.load.mvbench.MvBenchLayout;
import dev.gamagent.eval.load.mvbench.MvBenchVariant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code gam data}: the benchmarks gam knows by name, in the data directory or fetched into it. */
@Command(name = "data", mixinStandardHelpOptions = true,
        description = "Benchmarks by name (VLMEvalKit's names): list them, fetch them into the data directory, verify the copies, build M3MAD-Bench's sets.",
        subcommands = {DataCommand.ListCommand.class, DataCommand.FetchCommand.class, DataCommand.VerifyCommand.class, DataCommand.BuildCommand.class})
public final class DataCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Every benchmark gam knows, whether the data directory has it, and how it is graded.")
    static final class ListCommand implements Callable<Integer> {
        @Option(names = "--all", description = "also list VLMEvalKit's datasets gam does not support by name, with what each needs")
        boolean all;

        @Mixin DataOptions data;

        @Mixin SettingsOptions settings;

        @Override public Integer call() {
            DataFiles files = data.files(settings.config(), System.err);
            System.out.println("data directory: " + files.dir().path() + " (" + files.dir().how() + "); URLs and md5 from VLMEvalKit "
                    + files.catalogue().vlmEvalKitCommit());
            System.out.printf(Locale.ROOT, "%-22s %-16s %-10s %-16s %s%n", "name", "here", "size", "grading", "notes");
            for (DatasetEntry e : files.catalogue().entries()) {
                String here, size = "";
                DataFiles.DataFile f = safeLocate(files, e);
                if (f != null) {
                    here = switch (f.check()) {
                        case OFFICIAL -> "official";
                        case DIFFERS -> "md5 differs";
                        case CHANGED -> "changed";
                        case UNTRUSTED -> "no baseline";
                        case SNAPSHOT -> "snapshot";
                        default -> "yes";
                    };
                    size = f.check() == DataFiles.Check.SNAPSHOT ? "dir" : Downloader.Bytes.format(f.sums().size());
                } else if (Files.exists(files.partial(e))) {
                    here = "partial";
                } else {
                    here = e.url() == null ? "no (build)" : snapshot(e) ? "no (snapshot)" : "no";
                }
                List<String> notes = new ArrayList<>();
                if (snapshot(e)) {
                    MvBenchVariant v = MvBenchVariant.of(e.name()).orElseThrow();
                    notes.add(v.branch() + " branch of " + MvBenchVariant.REPOSITORY + " in " + files.dir().path().resolve(e.file())
                            + " or the Hugging Face cache; " + (v.selection().fps() > 0 ? "1 frame per second" : v.selection().frames() + " frames per question"));
                }
                if (!e.papers().isEmpty()) notes.add("used by " + String.join(", ", e.papers()));
                if (e.note() != null) notes.add(e.note());
                if (!e.answers()) notes.add("no public answers" + (e.standIn() != null ? " (stand-in: " + e.standIn() + ")" : ""));
                if (e.md5() == null && e.url() != null && !snapshot(e)) notes.add("no published md5");
                System.out.printf(Locale.ROOT, "%-22s %-16s %-10s %-16s %s%n", e.name(), here, size, e.grading(), String.join("; ", notes));
            }
            List<DatasetCatalogue.Unsupported> rest = files.catalogue().unsupported();
            System.out.println(files.catalogue().entries().size() + " benchmarks by name (gradings: docs/metrics.md); " + rest.size()
                    + " more of VLMEvalKit's datasets are not supported" + (all ? ":" : " ('gam data list --all' lists them with what each needs)"));
            if (all) {
                System.out.printf(Locale.ROOT, "%-22s %s%n", "not supported", "needs");
                for (DatasetCatalogue.Unsupported u : rest) System.out.printf(Locale.ROOT, "%-22s %s%n", u.name(), u.needs());
            }
            return 0;
        }

        private static boolean snapshot(DatasetEntry e) { return DatasetCatalogue.kind(e.kind(), e.name()).snapshot(); }

        private static DataFiles.DataFile safeLocate(DataFiles files, DatasetEntry e) {
            try {
                return files.locate(e);
            } catch (DataException ex) {
                System.err.println("warning: " + ex.getMessage());
                return null;
            }
        }
    }

    @Command(name = "fetch", mixinStandardHelpOptions = true,
            description = "Download benchmarks by name into the data directory (once; resumes a partial download; checks the published md5).")
    static final class FetchCommand implements Callable<Integer> {
        @Parameters(arity = "1..*", paramLabel = "NAME", description = "benchmark names, e.g. MMBench_DEV_EN_V11 MMMU_DEV_VAL")
        List<String> names = new ArrayList<>();

        @Option(names = "--force", description = "download again even when the data directory has the file")
        boolean force;

        @Mixin DataOptions data;

        @Mixin SettingsOptions settings;

        @Override public Integer call() {
            DataFiles files = data.files(settings.config(), System.err);
            // every name is tried, whatever happened to the one before: one summary line each at the end
            List<String> fetched = new ArrayList<>(), present = new ArrayList<>(), failed = new ArrayList<>(), manual = new ArrayList<>();
            for (String n : names) {
                DatasetEntry e;
                try {
                    e = files.catalogue().require(n);
                } catch (IllegalArgumentException ex) {
                    System.err.println("error: " + ex.getMessage());
                    failed.add(n + ": " + ex.getMessage());
                    continue;
                }
                try {
                    boolean here = !force && files.locate(e) != null;
                    if (!here && !files.downloadable(e)) {
                        String step = files.remedy(e);
                        System.err.println("needs a manual step: " + e.name() + ": " + step);
                        manual.add(e.name() + ": " + step);
                    } else {
                        DataFiles.DataFile f = files.fetch(e, force);
                        String warn = f.check().warns() ? " (warning: " + f.check().meaning() + ")" : "";
                        System.out.println((f.downloaded() ? "fetched " : "already here: ") + f.describe());
                        (f.downloaded() ? fetched : present).add(e.name() + warn);
                    }
                } catch (DataException ex) {
                    System.err.println("error: " + ex.getMessage());
                    failed.add(e.name() + ": " + ex.getMessage());
                }
                if (!e.answers()) {
                    System.out.println("  note: " + e.name() + " has no public answers" + (e.standIn() != null ? "; its stand-in is " + e.standIn() : "")
                            + (e.submitTo() != null ? "; official figures come from " + e.submitTo() : ""));
                }
                if (e.note() != null) System.out.println("  note: " + e.name() + ": " + e.note());
            }
            if (names.size() > 1 || !failed.isEmpty() || !manual.isEmpty()) {
                System.out.println("summary of " + names.size() + " name(s):");
                summary("fetched", fetched);
                summary("already present", present);
                summary("failed", failed);
                summary("needs a manual step", manual);
            }
            return failed.isEmpty() && manual.isEmpty() ? 0 : 1;
        }

        private static void summary(String what, List<String> items) {
            if (items.isEmpty()) return;
            System.out.println("  " + what + " (" + items.size() + "):");
            items.forEach(i -> System.out.println("    " + i));
        }
    }

    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = "Check the benchmark files in the data directory, reading each one whole (never trusting its modification time), "
                    + "against the published md5 (or the sha256 recorded at first download), "
                    + "and a snapshot (MVBench) for its 20 tasks' annotations and every row's video; exit 1 when one differs, is incomplete or a named one is missing.")
    static final class VerifyCommand implements Callable<Integer> {
        @Parameters(arity = "0..*", paramLabel = "NAME", description = "benchmark names (default: every one the data directory has)")
        List<String> names = new ArrayList<>();

        @Mixin DataOptions data;

        @Mixin SettingsOptions settings;

        @Override public Integer call() {
            DataFiles files = data.files(settings.config(), System.err);
            List<DatasetEntry> entries = names.isEmpty() ? files.catalogue().entries() : names.stream().map(files.catalogue()::require).toList();
            int bad = 0, checked = 0;
            for (DatasetEntry e : entries) {
                // the whole content is read: a size and modification time that still match say nothing of the bytes
                DataFiles.DataFile f = files.verify(e);
                if (DatasetCatalogue.kind(e.kind(), e.name()).snapshot()) {
                    if (f == null && names.isEmpty()) continue;
                    if (f == null) {
                        MvBenchVariant v = MvBenchVariant.of(e.name()).orElseThrow();
                        String where;
                        try {
                            where = "found at " + MvBenchLayout.locate(v, files.dir().path(), MvBenchLayout.defaultHubCaches());
                        } catch (IllegalArgumentException ex) {
                            where = ex.getMessage();
                        }
                        System.out.println("missing: " + where);
                        System.out.println("  " + files.snapshotInstruction(e));
                        bad++;
                        continue;
                    }
                    checked++;
                    MvBenchCheck check = MvBenchCheck.of(MvBenchVariant.of(e.name()).orElseThrow(), f.path());
                    List<String> lines = check.describe();
                    System.out.println((check.complete() ? "ok       " : "INCOMPLETE ") + lines.get(0));
                    lines.subList(1, lines.size()).forEach(System.out::println);
                    if (!check.complete()) bad++;
                    continue;
                }
                if (f == null) {
                    if (!names.isEmpty()) {
                        System.out.println("missing: " + e.name() + " is not in " + files.dir().path() + " ('" + files.remedy(e) + "')");
                        bad++;
                    }
                    continue;
                }
                checked++;
                System.out.println((f.check().warns() ? "DIFFERS  " : "ok       ") + f.describe());
                if (f.check().warns()) bad++;
            }
            System.out.println(checked + " file(s) or snapshot(s) checked in " + files.dir().path()
                    + (bad > 0 ? ", " + bad + " not as published, incomplete or missing" : ", all as expected"));
            return bad > 0 ? 1 : 0;
        }
    }

    @Command(name = "build", mixinStandardHelpOptions = true,
            description = "Build M3MAD-Bench's sets (M3MAD_MME, M3MAD_MathVista, M3MAD_MathVision, M3MAD_PathVQA, M3MAD_MME-reasoning, "
                    + "M3MAD_VisualPuzzles) from the source datasets as the authors' datasets/build_test_dataset.py does (same rows, "
                    + "seed 2024, 500 questions), into M3MAD/<set>.json of the data directory with its images beside it (relative paths).")
    static final class BuildCommand implements Callable<Integer> {
        @Parameters(arity = "1..*", paramLabel = "NAME", description = "M3MAD_<set> names, e.g. M3MAD_MME")
        List<String> names = new ArrayList<>();

        @Option(names = "--source", paramLabel = "PATH", description = "the source: a folder holding the Hugging Face dataset's Parquet files "
                + "(default: <data dir>/M3MAD/sources/<owner>/<name>, then the Hugging Face hub cache); for M3MAD_MME-reasoning "
                + "VLMEvalKit's MME_Reasoning.tsv (default: the data directory's, 'gam data fetch MME-Reasoning'). One NAME only with it")
        Path source;

        @Option(names = "--num2sample", paramLabel = "N", description = "questions kept after the shuffle (the script's --num2sample; default ${DEFAULT-VALUE})")
        int num2sample = M3madBuilder.NUM2SAMPLE;

        @Mixin DataOptions data;

        @Mixin SettingsOptions settings;

        @Override public Integer call() {
            if (source != null && names.size() > 1) throw new IllegalArgumentException("--source names one set's source: give one NAME with it");
            DataFiles files = data.files(settings.config(), System.err);
            List<M3madSet> sets = new ArrayList<>();
            for (String n : names) {
                sets.add(M3madSet.of(n).orElseThrow(() -> new IllegalArgumentException("'" + n + "' is not a set gam data build makes; it builds "
                        + String.join(", ", M3madSet.names()) + (files.catalogue().find(n) != null ? " ('gam data fetch " + n + "' fetches it)" : ""))));
            }
            int failed = 0;
            for (M3madSet set : sets) {
                try {
                    Path src = M3madBuilder.source(set, source, files, MvBenchLayout.defaultHubCaches());
                    M3madBuilder.Result r = M3madBuilder.build(set, src, files.dir().path(), num2sample, System.err);
                    System.out.println("built " + r.describe());
                } catch (IllegalArgumentException | DataException e) {
                    System.err.println("error: " + e.getMessage());
                    failed++;
                }
            }
            return failed == 0 ? 0 : 1;
        }
    }
}
