package dev.gamagent.api.internal;

import dev.gamagent.backend.ChatRequest;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import dev.gamagent.api.Method;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Trace;

/**
 * A method that runs a panel of agents and can name them before it runs. DREAM (docs/design.md §7) probes each
 * agent as the method will run it — role, instructions, backend, sampling — and after its rollback lets the
 * method's own rule pick the final answer. {@link #agents} is all a new method must write; {@link #decide}
 * stays empty for methods whose rule is a majority vote.
 */
public interface MultiAgentMethod extends Method {

    /**
     * One agent as the method runs it.
     *
     * @param id           the stable id its turns carry in the trace ({@code agent-1}, {@code scene}, ...)
     * @param role         the {@code <role>} line of its prompts ({@code debater}, {@code ocr expert}, ...)
     * @param backend      the backend name it uses (null: the run's default), resolved with {@link RunContext#backendFor}
     * @param instructions what its own prompt tells it beyond the question (a GAM role's focus, a DMAD strategy), or ""
     * @param temperature  its sampling temperature (0 = greedy)
     */
    record Agent(String id, String role, String backend, String instructions, double temperature) {
        public Agent {
            instructions = instructions == null ? "" : instructions.strip();
        }
    }

    /**
     * The agents this method would run for this question and configuration, in the order of their image index
     * (agent i receives the images at DREAM's scales for index i, {@code engine.AgentScales}, see {@code engine.AgentImages}).
     */
    List<Agent> agents(Question question, Config config);

    /**
     * What agent {@code index} sends in round 0 when it sees {@code images}, and how the method reads the reply. DREAM's
     * probe asks exactly this at each scale (docs/design.md §7), so the probe at the scale the agent then debates at is its
     * round-0 answer, not a second identical call. Empty (the default): the method has no fixed round-0 request (its
     * agents speak in turn, each seeing the last), and DREAM probes it with its own one-line prompt.
     */
    default Optional<Opening> opening(Question question, RunContext context, int index, List<Picture> images) {
        return Optional.empty();
    }

    /**
     * A round-0 request ({@link ChatRequest#caller} set to the agent and round 0) and how the method reads a reply to it;
     * {@code reader} null: the project's line-format reading ({@code ANSWER:}).
     */
    record Opening(ChatRequest request, Function<String, Reading> reader) { }

    /** An answer as the method reads it; {@code answer} null when the reply holds no opinion (not applicable, unreadable). */
    record Reading(String answer, String option) { }

    /** A final answer with its confidence and uncertainty. */
    record Decision(String answer, String option, double confidence, double uncertainty) { }

    /**
     * The method's own final decision over one answer per agent (its last turn, or the earlier turn DREAM's
     * rollback restored, carrying the last round's weight). Empty: the method's rule is a majority vote.
     */
    default Optional<Decision> decide(Question question, List<Trace.AgentTurn> answers, Config config) {
        return Optional.empty();
    }
}
