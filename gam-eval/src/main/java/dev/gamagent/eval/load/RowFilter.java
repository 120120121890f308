package dev.gamagent.eval.load;

import java.util.Map;

/** Which rows to keep: at most {@code limit} (0 = all) rows of {@code category} (null = all). */
public record RowFilter(int limit, String category) {
    public static final RowFilter ALL = new RowFilter(0, null);

    boolean keeps(Map<String, String> row) { return keepsCategory(RowFields.blankToNull(row.get("category"))); }

    boolean keepsCategory(String rowCategory) {
        return category == null || category.isBlank() || category.equalsIgnoreCase(rowCategory);
    }
}
