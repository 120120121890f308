package dev.gamagent.cli;

import dev.gamagent.backend.internal.SecretScrubber;

/**
 * What a command learns from the command line it runs under ({@link Main}, its picocli parent): the secrets it can
 * reach, which every trace the command stores is scrubbed of. A command made alone (a test) has no parent: nothing
 * to scrub.
 */
interface CommandContext {
    SecretScrubber secrets();

    static SecretScrubber secretsOf(CommandContext parent) { return parent == null ? SecretScrubber.NONE : parent.secrets(); }
}
