package dev.gamagent.eval.data;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where benchmark files live: {@code --data-dir DIR}, else {@code $LMUData}, else {@code ~/LMUData} —
 * VLMEvalKit's own choice ({@code vlmeval/smp/file.py LMUDataRoot}), so the files a user already
 * downloaded with VLMEvalKit are found where it put them.
 *
 * @param note what a user should know about the choice (an {@code $LMUData} that does not exist), or null
 */
public record DataDirectory(Path path, String how, String note) {
    public static final String ENV = "LMUData";

    /** The directory from the flag (null when not given) and the environment. */
    public static DataDirectory resolve(Path flag, Map<String, String> env, Path home) {
        if (flag != null) return new DataDirectory(flag.toAbsolutePath().normalize(), "--data-dir", null);
        String lmu = env.get(ENV);
        Path fallback = home.resolve("LMUData");
        if (lmu != null && !lmu.isBlank()) {
            Path p = Path.of(lmu).toAbsolutePath().normalize();
            if (Files.isDirectory(p)) return new DataDirectory(p, "$" + ENV, null);
            // VLMEvalKit silently falls back here too; we say so
            return new DataDirectory(fallback, "~/LMUData", "$" + ENV + " is " + lmu + ", which is not a directory; using " + fallback
                    + " as VLMEvalKit does (create " + lmu + " or pass --data-dir to use another)");
        }
        return new DataDirectory(fallback, "~/LMUData", null);
    }

    /** The directory for this process: {@code flag}, {@code $LMUData}, {@code ~/LMUData}. */
    public static DataDirectory of(Path flag) { return resolve(flag, System.getenv(), Path.of(System.getProperty("user.home"))); }
}
