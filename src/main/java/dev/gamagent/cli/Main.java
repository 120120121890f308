package dev.gamagent.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code gam} command line. */
@Command(name = "gam", mixinStandardHelpOptions = true, version = "gam 0.1.0",
        description = "GAM-Agent: uncertainty-aware, game-theoretic multi-agent debate for vision-language models.",
        subcommands = {AskCommand.class, EvalCommand.class, GradeCommand.class, DemoCommand.class, ServeCommand.class, ReportCommand.class,
                SweepCommand.class, BenchCommand.class, BackendsCommand.class, LocalServerCommand.class,
                CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    public static int run(String... args) {
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            cmd.getErr().println("error: " + ex.getMessage());
            if (System.getenv("GAM_DEBUG") != null) ex.printStackTrace(cmd.getErr());
            return 1;
        });
        return cl.execute(args);
    }

    @Override public void run() {
        spec.commandLine().usage(System.out);
    }
}
