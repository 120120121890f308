package dev.gamagent.eval.grade;

/**
 * The value of a numeric expression, for MathVision's {@code is_equal}, which tries Python's {@code eval} on both
 * answers and then {@code latex2sympy}: Python syntax (numbers, {@code + - * / // % **}, parentheses), or a LaTeX
 * subset ({@code \frac}, {@code \dfrac}, {@code \sqrt}, {@code \sqrt[n]}, {@code \pi}, {@code \cdot}, {@code \times},
 * {@code \div}, {@code ^{}}, {@code \left( \right)}, implicit products such as {@code 2\sqrt{3}}). An expression with a
 * variable or anything else has no value here (null); latex2sympy's symbolic comparison of such expressions is not
 * reproduced.
 */
final class NumericExpression {
    private final String s;
    private final boolean latex;
    private int pos;

    private NumericExpression(String s, boolean latex) {
        this.s = s;
        this.latex = latex;
    }

    /** Python's {@code eval} of a numeric expression, or null (what raises, or is not a number). */
    static Double python(String text) { return new NumericExpression(text, false).parse(); }

    /** The value latex2sympy would give a numeric LaTeX expression, or null. */
    static Double latex(String text) {
        String t = text.replace("\\left", "").replace("\\right", "").replace("\\!", "").replace("\\,", "").replace("$", "");
        return new NumericExpression(t, true).parse();
    }

    private Double parse() {
        try {
            double v = sum();
            skip();
            return pos == s.length() && !Double.isNaN(v) ? v : null;
        } catch (IllegalArgumentException | ArithmeticException e) {
            return null;
        }
    }

    private double sum() {
        double v = product();
        while (true) {
            if (eat("+")) v += product();
            else if (eat("-")) v -= product();
            else return v;
        }
    }

    private double product() {
        double v = unary();
        while (true) {
            if (!latex && eat("//")) v = Math.floor(v / nonZero(unary()));
            else if (eat("*") || latex && (eat("\\cdot") || eat("\\times"))) v *= unary();
            else if (eat("/") || latex && eat("\\div")) v /= nonZero(unary());
            else if (!latex && eat("%")) { double d = nonZero(unary()); v = v - d * Math.floor(v / d); }
            else if (latex && startsFactor()) v *= unary(); // 2\sqrt{3}, 2\pi, 3(4)
            else return v;
        }
    }

    private double unary() {
        if (eat("-")) return -unary();
        if (eat("+")) return unary();
        double v = atom();
        // Python: -2**2 is -(2**2), and ** is right-associative
        if (eat(latex ? "^" : "**")) return Math.pow(v, unary());
        return v;
    }

    private double atom() {
        skip();
        if (eat("(")) return closing(")");
        if (latex && eat("{")) return closing("}");
        if (latex && (eat("\\frac") || eat("\\dfrac") || eat("\\tfrac"))) {
            double a = group(), b = group();
            return a / nonZero(b);
        }
        if (latex && eat("\\sqrt")) {
            double n = 2;
            if (eat("[")) n = closing("]");
            return Math.pow(group(), 1 / n);
        }
        if (latex && eat("\\pi")) return Math.PI;
        return number();
    }

    private double group() {
        skip();
        if (eat("{")) return closing("}");
        // \frac12: a single digit stands for its group
        if (pos < s.length() && Character.isDigit(s.charAt(pos))) return s.charAt(pos++) - '0';
        throw new IllegalArgumentException("group expected at " + pos);
    }

    private double closing(String close) {
        double v = sum();
        if (!eat(close)) throw new IllegalArgumentException(close + " expected at " + pos);
        return v;
    }

    private double number() {
        skip();
        int b = pos;
        while (pos < s.length() && (Character.isDigit(s.charAt(pos)) && s.charAt(pos) < 128 || s.charAt(pos) == '.' || s.charAt(pos) == '_')) pos++;
        if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E') && pos > b) {
            int e = pos + 1;
            if (e < s.length() && (s.charAt(e) == '+' || s.charAt(e) == '-')) e++;
            if (e < s.length() && Character.isDigit(s.charAt(e))) {
                pos = e;
                while (pos < s.length() && Character.isDigit(s.charAt(pos))) pos++;
            }
        }
        String t = s.substring(b, pos);
        if (t.isEmpty() || t.equals(".") || t.startsWith("_") || t.endsWith("_") || t.contains("__") || t.contains("_.") || t.contains("._")) {
            throw new IllegalArgumentException("number expected at " + b);
        }
        return Double.parseDouble(t.replace("_", ""));
    }

    private boolean startsFactor() {
        skip();
        if (pos >= s.length()) return false;
        char c = s.charAt(pos);
        return c == '(' || c == '{' || Character.isDigit(c) || s.startsWith("\\frac", pos) || s.startsWith("\\dfrac", pos)
                || s.startsWith("\\tfrac", pos) || s.startsWith("\\sqrt", pos) || s.startsWith("\\pi", pos);
    }

    private static double nonZero(double d) {
        if (d == 0) throw new ArithmeticException("division by zero");
        return d;
    }

    private boolean eat(String t) {
        skip();
        if (!s.startsWith(t, pos)) return false;
        // '*' is not the start of '**', '/' not of '//'
        if ((t.equals("*") && s.startsWith("**", pos)) || (t.equals("/") && !latex && s.startsWith("//", pos))) return false;
        pos += t.length();
        return true;
    }

    private void skip() {
        while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) pos++;
    }
}
