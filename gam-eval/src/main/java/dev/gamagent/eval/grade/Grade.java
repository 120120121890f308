package dev.gamagent.eval.grade;

/** A grade ({@link Grader}), the letter or text that was graded, and which rule decided it. */
public record Grade(Outcome outcome, String predicted, String rule) { }
