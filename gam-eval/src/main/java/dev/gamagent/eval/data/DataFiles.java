package dev.gamagent.eval.data;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.load.mvbench.MvBenchLayout;
import dev.gamagent.eval.load.mvbench.MvBenchVariant;
import dev.gamagent.util.AtomicFiles;
import dev.gamagent.util.HttpUrl;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Locale;

/**
 * Benchmark files by name: found in the data directory (VLMEvalKit's layout) or downloaded once, from the
 * official location or a mirror, into a resumable partial file whose md5 is checked before it takes the
 * file's name. A download from the official URL that does not match the published md5 is deleted and named; a
 * copy the user chose — already in the directory, or served by the mirror — whose md5 differs is kept and used, and
 * every run says so (one rule, {@link #checkOf}). Where no md5 is
 * published, the sha256 recorded when gam first saw the file is what later runs are checked against (none is
 * recorded from a mirror's download that was redirected off the mirror's host).
 *
 * @param mirror   a base URL serving a data directory's layout ({@code <mirror>/MMBench_DEV_EN.tsv}) used
 *                 instead of the official locations; null for the official ones
 * @param maxBytes the most a download may hold when the catalogue does not know its file's size
 */
public record DataFiles(DatasetCatalogue catalogue, DataDirectory dir, String mirror, Downloader downloader, long maxBytes, PrintStream log) {
    /** The environment variable that sets the mirror when {@code --data-mirror} is not given. */
    public static final String MIRROR_ENV = "GAM_DATA_MIRROR";
    /** A file whose size the catalogue knows may come down this much larger (a re-release), and at least {@link #MIN_MARGIN} larger. */
    static final double SIZE_MARGIN = 0.25;
    static final long MIN_MARGIN = 16L << 20;
    /** For the connection and an answer's headers; the whole download has its own deadline. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(60);

    /** How a file compares with what it should be. */
    public enum Check {
        /** its md5 equals the published one */
        OFFICIAL("md5 equals the published md5"),
        /** its md5 differs from the published one: usable, but not the official file */
        DIFFERS("md5 differs from the published md5: not the official file"),
        /** no md5 is published; its sha256 equals the one recorded when gam first saw it */
        SAME_AS_FIRST("no md5 is published; sha256 equals the one recorded when gam first saw the file"),
        /** no md5 is published; gam sees it for the first time and recorded its sha256 */
        RECORDED_NOW("no md5 is published; sha256 recorded now, later runs are checked against it"),
        /** no md5 is published; its sha256 changed since gam first saw it */
        CHANGED("no md5 is published; sha256 differs from the one recorded when gam first saw the file"),
        /** no md5 is published and the download was redirected off the mirror's host: its sha256 is no baseline */
        UNTRUSTED("no md5 is published and the download was redirected off the mirror's host: its sha256 is not taken as the baseline"),
        /** no md5 is published and the file is outside the data directory, where nothing is recorded */
        UNCHECKED("no md5 is published and the file is outside the data directory: nothing recorded to compare with"),
        /** a snapshot of a dataset repository (a directory): no md5; {@code gam data verify} checks its layout */
        SNAPSHOT("a snapshot of the dataset's repository (a directory): no md5 is published; 'gam data verify' checks its layout"),
        /** not a benchmark of the catalogue: nothing to compare with */
        UNKNOWN("not a benchmark gam knows; nothing to compare with");

        private final String meaning;

        Check(String meaning) { this.meaning = meaning; }

        public String meaning() { return meaning; }

        /** true for the official file, false for a different one, null when no published value decides it. */
        public Boolean official() { return this == OFFICIAL ? Boolean.TRUE : this == DIFFERS ? Boolean.FALSE : null; }

        /** Whether a user must be told (the file is not what it should be). */
        public boolean warns() { return this == DIFFERS || this == CHANGED || this == UNTRUSTED; }
    }

    /** A benchmark file and what is known about it. {@code entry} is null for a file the catalogue does not know. */
    public record DataFile(DatasetEntry entry, Path path, Checksums.Sums sums, Check check, boolean downloaded, String source) {
        /** One line: the file, its md5 and how it compares. */
        public String describe() {
            String name = entry == null ? path.getFileName().toString() : entry.name();
            String base = name + " (" + path + ", " + Downloader.Bytes.format(sums.size()) + ", md5 " + sums.md5() + "): ";
            return switch (check) {
                case OFFICIAL -> base + "the official file (md5 as published)";
                case DIFFERS -> base + "md5 differs from the published " + entry.md5() + " — not the official file; it is used, "
                        + "but its figures are not comparable with published ones (gam data fetch " + entry.name() + " --force replaces it)";
                case SAME_AS_FIRST -> base + "no md5 is published; sha256 unchanged since " + sums.firstSeen();
                case RECORDED_NOW -> base + "no md5 is published; sha256 " + sums.sha256() + " recorded now";
                case CHANGED -> base + "no md5 is published and the file changed since " + sums.firstSeen() + " (sha256 then "
                        + sums.firstSha256() + ", now " + sums.sha256() + ")";
                case UNTRUSTED -> base + "no md5 is published, and the file was " + sums.untrusted() + ": its sha256 " + sums.sha256()
                        + " is not taken as the baseline (gam data fetch " + entry.name() + " --force from a source that does not redirect "
                        + "replaces it; deleting " + Checksums.sidecar(path).getFileName() + " accepts it as it is)";
                case UNCHECKED -> base + "no md5 is published; not checked (outside the data directory)";
                case SNAPSHOT -> name + " (" + path + "): " + kind(entry).describe() + " (" + DatasetKind.variant(entry.name()).branch()
                        + " branch); no md5 is published for a snapshot ('gam data verify " + entry.name() + "' checks its layout)";
                case UNKNOWN -> base + "not a benchmark gam knows";
            };
        }

        /** This file with the sha256 its one read by the loader found, when none was taken before (a file gam does not know). */
        public DataFile withSha256(String sha256) {
            if (sums.sha256() != null || sha256 == null) return this;
            return new DataFile(entry, path, new Checksums.Sums(sums.size(), sums.md5(), sha256, sums.firstSha256(), sums.firstSeen(),
                    sums.firstRecordedNow(), sums.untrusted()), check, downloaded, source);
        }

        /** What {@code summary.json} records under {@code data_file}. */
        public ObjectNode provenance(DatasetCatalogue catalogue) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.put("name", entry == null ? null : entry.name());
            o.put("file", path.toString());
            o.put("bytes", sums.size());
            o.put("md5", sums.md5());
            o.put("sha256", sums.sha256());
            o.put("published_md5", entry == null ? null : entry.md5());
            Boolean official = check.official();
            if (official == null) o.putNull("official"); else o.put("official", official);
            o.put("check", check.name().toLowerCase(Locale.ROOT));
            o.put("check_meaning", check.meaning());
            if (sums.firstSha256() != null && (entry == null || entry.md5() == null)) o.put("first_sha256", sums.firstSha256());
            if (sums.untrusted() != null && (entry == null || entry.md5() == null)) o.put("untrusted", sums.untrusted());
            o.put("downloaded", downloaded);
            o.put("source", source);
            if (entry != null && entry.url() != null) {
                o.put("catalogue", "VLMEvalKit " + catalogue.vlmEvalKitCommit() + " (" + entry.definedIn() + ")");
            } else if (entry != null) {
                o.put("catalogue", entry.definedIn());
            }
            return o;
        }
    }

    /**
     * Files by name in {@code dir}, downloaded from the official locations or {@code mirror} within the limits of
     * {@code config} ({@code data.max_download_mb}, {@code data.download_deadline_s}), progress on {@code log}.
     */
    public static DataFiles open(DataDirectory dir, String mirror, Config config, PrintStream log) {
        return open(DatasetCatalogue.builtIn(), dir, mirror, config, log);
    }

    /** As {@link #open(DataDirectory, String, Config, PrintStream)} with another catalogue. */
    public static DataFiles open(DatasetCatalogue catalogue, DataDirectory dir, String mirror, Config config, PrintStream log) {
        String m = blankToNull(mirror);
        double mb = config.number("data.max_download_mb"), deadline = config.number("data.download_deadline_s");
        if (!(mb > 0) || !(deadline > 0)) {
            throw new DataException("config data.max_download_mb and data.download_deadline_s must be positive numbers, got " + mb + " and " + deadline);
        }
        Downloader d = new Downloader(CONNECT_TIMEOUT, Duration.ofMillis(Math.round(deadline * 1000)), DownloadHosts.of(catalogue, m));
        return new DataFiles(catalogue, dir, m, d, Math.round(mb * 1024 * 1024), log);
    }

    /**
     * The most a download of {@code entry} may hold: the catalogue's size of its file with {@link #SIZE_MARGIN} more (at
     * least {@link #MIN_MARGIN}) when it knows one, else {@link #maxBytes} ({@code data.max_download_mb}).
     */
    public Downloader.Limit limit(DatasetEntry entry) {
        if (entry.bytes() != null) {
            long margin = Math.max(Math.round(entry.bytes() * SIZE_MARGIN), MIN_MARGIN);
            return new Downloader.Limit(entry.bytes() + margin, "the catalogue's size of " + entry.name() + ", "
                    + Downloader.Bytes.format(entry.bytes()) + ", and a quarter more");
        }
        return new Downloader.Limit(maxBytes, "config data.max_download_mb; the catalogue does not know the size of " + entry.name());
    }

    /**
     * What {@code --data VALUE} names: an existing file (checked against the catalogue when its name is a
     * benchmark's), else a benchmark name, found in the data directory or downloaded.
     */
    public DataFile resolve(String value) {
        Path asFile = Path.of(value);
        if (Files.isRegularFile(asFile)) {
            DatasetEntry known = entryForFile(asFile);
            // a file gam does not know has nothing to compare with: not read here (the loader hashes it in its one read)
            return known != null ? check(asFile, known, false, "given as a file") : unknown(asFile);
        }
        if (Files.isDirectory(asFile)) return unknown(asFile); // the loader reads it if it holds a layout it knows, else says what it lacks
        DatasetEntry e = catalogue.find(value);
        if (e == null) {
            if (value.contains("/") || value.contains("\\") || value.matches(".*\\.(tsv|json|jsonl)$")) {
                throw new DataException("benchmark file " + value + " does not exist");
            }
            catalogue.require(value); // throws, naming the nearest names
        }
        DataFile found = locate(e);
        return found != null ? found : fetch(e, false);
    }

    /** {@code entry}'s file in the data directory, checked; null when it is not there. */
    public DataFile locate(DatasetEntry entry) { return locate(entry, false); }

    /**
     * As {@link #locate(DatasetEntry)}, with the file's sums read from all of its content rather than remembered: what
     * {@code gam data verify} checks (a file edited with its old modification time restored is seen as changed).
     */
    public DataFile verify(DatasetEntry entry) { return locate(entry, true); }

    private DataFile locate(DatasetEntry entry, boolean content) {
        if (kind(entry).snapshot()) {
            MvBenchVariant v = DatasetKind.variant(entry.name());
            for (Path p : kind(entry).candidates(entry, dir.path())) {
                if (MvBenchLayout.lacks(v, p) == null) {
                    return new DataFile(entry, p, new Checksums.Sums(0, null, null, null, null, false), Check.SNAPSHOT, false,
                            "found in " + p.getParent());
                }
            }
            return null;
        }
        for (Path p : kind(entry).candidates(entry, dir.path())) {
            if (Files.isRegularFile(p)) return check(p, entry, false, "found in " + dir.path(), content);
        }
        return null;
    }

    /** The partial file a download of {@code entry} writes. */
    public Path partial(DatasetEntry entry) {
        Path t = kind(entry).target(entry, dir.path());
        return t.resolveSibling(t.getFileName() + ".part");
    }

    /** Where {@code entry} is downloaded from: the mirror's copy, else the official URL; null when neither exists. */
    public URI source(DatasetEntry entry) {
        if (mirror != null) return URI.create(mirror.replaceAll("/+$", "") + "/" + entry.file());
        return entry.url() == null ? null : URI.create(entry.url());
    }

    /** Whether {@link #fetch} can download {@code entry}: one file with a source (the mirror's copy or an official URL). */
    public boolean downloadable(DatasetEntry entry) { return !kind(entry).snapshot() && source(entry) != null; }

    /**
     * Downloads {@code entry} into the data directory (resuming a partial file), checks it and gives it its
     * name. Without {@code force} a file already there is kept and returned.
     */
    public DataFile fetch(DatasetEntry entry, boolean force) {
        if (!force) {
            DataFile found = locate(entry);
            if (found != null) return found;
        }
        if (kind(entry).snapshot()) throw new DataException(snapshotInstruction(entry));
        URI src = source(entry);
        Path target = kind(entry).target(entry, dir.path());
        if (src == null) {
            throw new DataException(entry.name() + " has no download: run '" + remedy(entry) + "' (it writes " + target + " with its images), "
                    + "pass a built JSON itself to --data, or set --data-mirror (or $" + MIRROR_ENV + ") to a server that serves " + entry.file());
        }
        Path part = partial(entry);
        Path lockFile = target.resolveSibling(target.getFileName() + ".lock");
        try {
            Files.createDirectories(target.getParent());
        } catch (IOException e) {
            throw new DataException("cannot create the data directory " + target.getParent() + ": " + e.getMessage()
                    + " (pass --data-dir DIR for another)", e);
        }
        try (FileChannel lockChannel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = tryLock(lockChannel, entry, target)) {
            log.println(entry.name() + ": " + (Files.exists(part) ? "resuming the download" : "downloading") + " from " + src + " into " + target);
            Downloader.Download got = downloader.fetch(src, part, limit(entry), Downloader.lines(log, entry.file()));
            String from = got.urls().size() > 1 ? src + " (redirected to " + got.last() + ")" : src.toString();
            // a mirror's redirect elsewhere means the mirror did not serve the bytes: they vouch for nothing
            String untrusted = entry.md5() == null && mirror != null && got.left(HttpUrl.parse(src.toString()).host())
                    ? "downloaded from " + src + " through a redirect off the mirror's host, to " + got.last() : null;
            String[] sums = Checksums.hash(part);
            // the published md5 is the official URL's promise: from there another md5 means the transfer went wrong. A mirror
            // is the user's choice of source, as a copy put in the data directory is: its file is kept and every run warns
            if (entry.md5() != null && !entry.md5().equals(sums[0]) && mirror == null) {
                long size = Files.size(part);
                Files.deleteIfExists(part);
                throw new DataException(entry.name() + ": the download from " + src + " (" + Downloader.Bytes.format(size) + ") has md5 "
                        + sums[0] + ", not the published " + entry.md5() + " (VLMEvalKit " + shortCommit() + "): it is truncated or altered, "
                        + "and was deleted. Run the command again" + (mirror != null ? ", or check the mirror " + mirror : ""));
            }
            Files.deleteIfExists(Checksums.sidecar(target));
            AtomicFiles.move(part, target);
            Checksums.Sums s = Checksums.recordDownload(target, sums[0], sums[1], "downloaded from " + from, untrusted);
            DataFile f = new DataFile(entry, target, s, checkOf(entry, s), true, from);
            log.println((f.check().warns() ? "warning: " : "") + f.describe());
            return f;
        } catch (IOException e) {
            throw new DataException("cannot write " + part + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(lockFile);
            } catch (IOException e) {
                // a stale lock file is harmless: locks are taken on it, not inferred from it
            }
        }
    }

    private static FileLock tryLock(FileChannel ch, DatasetEntry entry, Path target) throws IOException {
        try {
            FileLock l = ch.tryLock();
            if (l != null) return l;
        } catch (OverlappingFileLockException e) {
            // this process is downloading it already
        }
        throw new DataException("another gam process is downloading " + entry.name() + " into " + target + "; wait for it to finish");
    }

    /**
     * What to do to get a snapshot entry (MVBench): it is a snapshot of a Hugging Face dataset repository (thousands of
     * files, the videos in zip archives), not one file gam can download and check, so the one line says how VLMEvalKit's
     * {@code prepare_dataset} gets it, into the place gam looks first.
     */
    public String snapshotInstruction(DatasetEntry entry) {
        MvBenchVariant v = DatasetKind.variant(entry.name());
        Path target = kind(entry).target(entry, dir.path());
        return entry.name() + " is a snapshot of the Hugging Face dataset repository " + MvBenchVariant.REPOSITORY + " (" + v.branch()
                + " branch), not one file gam downloads: run 'huggingface-cli download " + MvBenchVariant.REPOSITORY + " --repo-type dataset"
                + (v.mp4() ? " --revision video" : "") + " --local-dir " + target + "'" + (v.mp4() ? "" : " then 'cd " + target.resolve("video")
                + " && unzip -o \"*.zip\"'") + " (as VLMEvalKit's prepare_dataset does; a snapshot VLMEvalKit already fetched into the "
                + "Hugging Face cache is found as it is), then 'gam data verify " + entry.name() + "'";
    }

    /** Checks a file against its entry (null: a file the catalogue does not know). */
    public DataFile check(Path file, DatasetEntry entry, boolean downloaded, String source) { return check(file, entry, downloaded, source, false); }

    /** As {@link #check(Path, DatasetEntry, boolean, String)}; with {@code content} the sums are read from the whole file. */
    private DataFile check(Path file, DatasetEntry entry, boolean downloaded, String source, boolean content) {
        // only files in the data directory get a sidecar; a user's file elsewhere is hashed and left alone
        boolean inDataDir = file.toAbsolutePath().normalize().startsWith(dir.path());
        boolean remember = entry != null && inDataDir;
        Checksums.Sums s = content ? Checksums.verify(file, source, remember) : Checksums.of(file, source, remember);
        String src = entry != null && entry.url() != null ? entry.url() : null;
        return new DataFile(entry, file, s, checkOf(entry, s), downloaded, src);
    }

    /**
     * The one rule for how a file compares with its entry, wherever it came from (found in the data directory, given by
     * path, served by a mirror): a published md5 decides official or differs; without one, the sha256 recorded when gam
     * first saw the file does.
     */
    static Check checkOf(DatasetEntry entry, Checksums.Sums s) {
        if (entry == null) return Check.UNKNOWN;
        if (entry.md5() != null) return entry.md5().equals(s.md5()) ? Check.OFFICIAL : Check.DIFFERS;
        if (s.untrusted() != null) return Check.UNTRUSTED;
        if (s.firstSha256() == null) return Check.UNCHECKED;
        return s.firstRecordedNow() ? Check.RECORDED_NOW : s.sameAsFirst() ? Check.SAME_AS_FIRST : Check.CHANGED;
    }

    /**
     * The one command (or manual step) that makes {@code entry} present in the data directory: {@code gam data build NAME}
     * for a benchmark gam builds from its sources (M3MAD-Bench) when no mirror is set, the snapshot instruction for a
     * snapshot (MVBench), {@code gam data fetch NAME} otherwise. Printed by {@code gam data fetch} and {@code gam data
     * verify}, and meant for {@code gam reproduce --dry-run}'s list of missing benchmarks. The entry's {@code note} (a
     * manual step such as MVBench's NTU RGB+D clips) is not part of it: print it beside.
     */
    public String remedy(DatasetEntry entry) {
        if (kind(entry).snapshot()) return snapshotInstruction(entry);
        if (entry.url() == null && mirror == null) return entry.build();
        return "gam data fetch " + entry.name();
    }

    /** A file or directory the catalogue does not know, not read: its size only ({@link #withSha256} adds the loader's hash). */
    static DataFile unknown(Path path) {
        long size;
        try {
            size = Files.isRegularFile(path) ? Files.size(path) : 0;
        } catch (java.io.IOException e) {
            throw new DataException("cannot read " + path + ": " + e.getMessage(), e);
        }
        return new DataFile(null, path, new Checksums.Sums(size, null, null, null, null, false), Check.UNKNOWN, false, null);
    }

    /** The catalogue entry whose file (or VLMEvalKit's legacy name for it) is called as {@code file} is, or null. */
    public DatasetEntry entryForFile(Path file) {
        String n = file.getFileName().toString();
        for (DatasetEntry e : catalogue.entries()) {
            if (Path.of(e.file()).getFileName().toString().equals(n)) return e;
        }
        for (DatasetEntry e : catalogue.entries()) if (n.equals(e.urlFileName())) return e;
        return null;
    }

    private String shortCommit() {
        String c = catalogue.vlmEvalKitCommit();
        return c == null ? "?" : c.substring(0, Math.min(8, c.length()));
    }

    private static DatasetKind kind(DatasetEntry e) { return DatasetCatalogue.kind(e.kind(), "dataset '" + e.name() + "'"); }

    private static String blankToNull(String s) { return s == null || s.isBlank() ? null : s.strip(); }
}
