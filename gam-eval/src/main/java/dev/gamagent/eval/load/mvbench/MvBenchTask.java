package dev.gamagent.eval.load.mvbench;

import java.util.Locale;

/**
 * MVBench's 20 tasks as VLMEvalKit lists them ({@code MVBench.type_data_list} in vlmeval/dataset/mvbench.py
 * at e8e78f05), in its order, which is the order of the rows and so of their indices: the task's
 * annotation file under {@code json/}, where its videos are (relative to the snapshot; VLMEvalKit writes
 * {@code your_data_path/} and replaces it with {@code video/}), whether they are video files or folders of
 * frames, and whether its rows' {@code start}/{@code end} bound the frames to sample.
 */
public enum MvBenchTask {
    ACTION_SEQUENCE("Action Sequence", "action_sequence.json", "video/star/Charades_v1_480/", false, true),
    ACTION_PREDICTION("Action Prediction", "action_prediction.json", "video/star/Charades_v1_480/", false, true),
    ACTION_ANTONYM("Action Antonym", "action_antonym.json", "video/ssv2_video/", false, false),
    FINE_GRAINED_ACTION("Fine-grained Action", "fine_grained_action.json", "video/Moments_in_Time_Raw/videos/", false, false),
    UNEXPECTED_ACTION("Unexpected Action", "unexpected_action.json", "video/FunQA_test/test/", false, false),
    OBJECT_EXISTENCE("Object Existence", "object_existence.json", "video/clevrer/video_validation/", false, false),
    OBJECT_INTERACTION("Object Interaction", "object_interaction.json", "video/star/Charades_v1_480/", false, true),
    OBJECT_SHUFFLE("Object Shuffle", "object_shuffle.json", "video/perception/videos/", false, false),
    MOVING_DIRECTION("Moving Direction", "moving_direction.json", "video/clevrer/video_validation/", false, false),
    ACTION_LOCALIZATION("Action Localization", "action_localization.json", "video/sta/sta_video/", false, true),
    SCENE_TRANSITION("Scene Transition", "scene_transition.json", "video/scene_qa/video/", false, false),
    ACTION_COUNT("Action Count", "action_count.json", "video/perception/videos/", false, false),
    MOVING_COUNT("Moving Count", "moving_count.json", "video/clevrer/video_validation/", false, false),
    MOVING_ATTRIBUTE("Moving Attribute", "moving_attribute.json", "video/clevrer/video_validation/", false, false),
    STATE_CHANGE("State Change", "state_change.json", "video/perception/videos/", false, false),
    FINE_GRAINED_POSE("Fine-grained Pose", "fine_grained_pose.json", "video/nturgbd/", false, false),
    CHARACTER_ORDER("Character Order", "character_order.json", "video/perception/videos/", false, false),
    EGOCENTRIC_NAVIGATION("Egocentric Navigation", "egocentric_navigation.json", "video/vlnqa/", false, false),
    EPISODIC_REASONING("Episodic Reasoning", "episodic_reasoning.json", "video/tvqa/frames_fps3_hq/", true, true),
    COUNTERFACTUAL_INFERENCE("Counterfactual Inference", "counterfactual_inference.json", "video/clevrer/video_validation/", false, false);

    private final String label;
    private final String jsonFile;
    private final String prefix;
    private final boolean frames;
    private final boolean bound;

    MvBenchTask(String label, String jsonFile, String prefix, boolean frames, boolean bound) {
        this.label = label;
        this.jsonFile = jsonFile;
        this.prefix = prefix;
        this.frames = frames;
        this.bound = bound;
    }

    /** VLMEvalKit's {@code task_type}, e.g. "Action Sequence": the row's category and the rating's key. */
    public String label() { return label; }

    /** The annotation file under {@code json/}. */
    public String jsonFile() { return jsonFile; }

    /** Where the task's videos are, relative to the snapshot (VLMEvalKit's {@code prefix} column). */
    public String prefix() { return prefix; }

    /** Whether a row's {@code video} is a folder of JPEG frames ({@code 00001.jpg}, 3 per second) rather than a file. */
    public boolean frameFolders() { return frames; }

    /** Whether the rows' {@code start}/{@code end} seconds bound the sampled frames. */
    public boolean bounded() { return bound; }

    /** VLMEvalKit's {@code data_type}: "frame" or "video". */
    public String dataType() { return frames ? "frame" : "video"; }

    /** The task whose label is {@code label} (as in test.json of the MP4 snapshot), any case. */
    public static MvBenchTask ofLabel(String label) {
        for (MvBenchTask t : values()) if (t.label.equalsIgnoreCase(label.strip())) return t;
        throw new IllegalArgumentException("'" + label + "' is not one of MVBench's 20 tasks (" + String.join(", ",
                java.util.Arrays.stream(values()).map(MvBenchTask::label).toList()) + ")");
    }

    @Override public String toString() { return label.toLowerCase(Locale.ROOT); }
}
