package dev.gamagent.cli;

import dev.gamagent.backend.BackendSpec;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The flags of gam eval's answer judge (VLMEvalKit's LLM extraction) and the backend they name. */
final class JudgeOptions {
    @Option(names = "--judge-backend", description = "backend that maps unmatched multiple-choice answers to an option (like VLMEvalKit's LLM extraction)")
    String judgeBackend;

    @Option(names = "--judge-base-url", description = "judge server URL")
    List<String> judgeBaseUrls = new ArrayList<>();

    @Option(names = "--judge-model", description = "judge model name")
    String judgeModel;

    @Option(names = "--judge-api-key-env", description = "environment variable holding the judge's API key")
    String judgeApiKeyEnv;

    /**
     * The judge's backend, with the run's request timeout and retries and {@code perEndpoint} requests in flight per
     * endpoint; null without {@code --judge-backend}.
     */
    BackendSpec spec(BackendOptions run, int perEndpoint) {
        if (judgeBackend == null) return null;
        return new BackendSpec(judgeBackend, judgeBaseUrls, judgeModel, judgeApiKeyEnv, Duration.ofSeconds(run.timeoutSeconds), run.retries,
                perEndpoint, null, null, null);
    }
}
