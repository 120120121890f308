package dev.gamagent.cli;

import dev.gamagent.config.Config;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code --config} and {@code --set} for a command without a backend ({@code gam data}: the download limits). */
public final class SettingsOptions {
    @Option(names = "--config", description = "JSON config file (e.g. the 'data' section: download limits)")
    Path config;

    @Option(names = "--set", description = "override one config value, e.g. --set data.max_download_mb=20000 (repeatable)")
    Map<String, String> overrides = new LinkedHashMap<>();

    /** The defaults under the file and the overrides. */
    public Config config() { return Config.defaults().withFile(config).withOverrides(overrides); }
}
