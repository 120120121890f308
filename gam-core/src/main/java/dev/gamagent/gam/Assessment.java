package dev.gamagent.gam;

/**
 * A critic's verdict on one disputed claim, as parsed.
 *
 * @param claim      the claim's number in the {@code <claims>} block the critic saw (1-based; 0 = all of them)
 * @param assessment {@code accurate}, {@code partially accurate} or {@code inaccurate}
 */
public record Assessment(int claim, String assessment, String reason, String correction, double confidence) { }
