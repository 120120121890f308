package dev.gamagent.eval.format;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads the first worksheet of an {@code .xlsx} file (a zip of XML parts) with the JDK alone, as a stream: the
 * worksheet's XML is pulled event by event and each row handed on as it ends ({@link #forEachRow}), and the shared
 * strings are held in bounded memory ({@link SharedStrings}). Shared
 * strings (rich-text runs joined, phonetic runs left out, "x005F_" removed as openpyxl does), inline
 * strings, formula strings, numbers and booleans. Cell values come back as openpyxl hands them to pandas: String, Long (an integral number),
 * Double, Boolean, or null for an empty or error cell. Dates, styles and formulas are not interpreted;
 * VLMEvalKit's result files hold none.
 */
public final class Xlsx {
    private static final String MAIN_SHEET = "xl/worksheets/sheet1.xml";

    private Xlsx() { }

    /** The first sheet's rows, each a list of cells by column position (missing cells are null). */
    public static List<List<Object>> readFirstSheet(Path file) {
        List<List<Object>> rows = new ArrayList<>();
        forEachRow(file, SharedStrings.MEMORY_CHARS, rows::add);
        return rows;
    }

    /**
     * Hands each row of the first sheet to {@code each} as soon as it is read (rows absent from the XML as empty rows),
     * holding at most {@code memoryChars} characters of shared strings in memory.
     */
    static void forEachRow(Path file, long memoryChars, java.util.function.Consumer<List<Object>> each) {
        try (ZipFile zip = new ZipFile(file.toFile()); SharedStrings shared = new SharedStrings(memoryChars)) {
            sharedStrings(zip, shared);
            String sheet = firstSheetPath(zip, file);
            ZipEntry e = zip.getEntry(sheet);
            if (e == null) throw new IllegalArgumentException(file + ": not an .xlsx workbook (no " + sheet + " inside)");
            try (InputStream in = zip.getInputStream(e)) {
                rows(in, shared, file, each);
            }
        } catch (java.util.zip.ZipException ex) {
            throw new IllegalArgumentException(file + ": not an .xlsx file (not a zip archive: " + ex.getMessage() + ")");
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot read " + file + ": " + ex.getMessage(), ex);
        } catch (XMLStreamException ex) {
            throw new IllegalArgumentException(file + ": malformed worksheet XML: " + ex.getMessage());
        }
    }

    private static XMLStreamReader reader(InputStream in) throws XMLStreamException {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        return f.createXMLStreamReader(in, "UTF-8");
    }

    /** The workbook's first sheet, following workbook.xml and its relationships; sheet1.xml when they say nothing. */
    private static String firstSheetPath(ZipFile zip, Path file) throws IOException, XMLStreamException {
        ZipEntry wb = zip.getEntry("xl/workbook.xml"), rels = zip.getEntry("xl/_rels/workbook.xml.rels");
        if (wb == null || rels == null) return MAIN_SHEET;
        String rid = null;
        try (InputStream in = zip.getInputStream(wb)) {
            XMLStreamReader x = reader(in);
            while (x.hasNext() && rid == null) {
                if (x.next() == XMLStreamConstants.START_ELEMENT && x.getLocalName().equals("sheet")) {
                    for (int i = 0; i < x.getAttributeCount(); i++) {
                        if (x.getAttributeLocalName(i).equals("id")) rid = x.getAttributeValue(i);
                    }
                }
            }
        }
        if (rid == null) return MAIN_SHEET;
        try (InputStream in = zip.getInputStream(rels)) {
            XMLStreamReader x = reader(in);
            while (x.hasNext()) {
                if (x.next() == XMLStreamConstants.START_ELEMENT && x.getLocalName().equals("Relationship")
                        && rid.equals(x.getAttributeValue(null, "Id"))) {
                    String target = x.getAttributeValue(null, "Target");
                    if (target == null) break;
                    return target.startsWith("/") ? target.substring(1) : "xl/" + target;
                }
            }
        }
        return MAIN_SHEET;
    }

    private static void sharedStrings(ZipFile zip, SharedStrings out) throws IOException, XMLStreamException {
        ZipEntry e = zip.getEntry("xl/sharedStrings.xml");
        if (e == null) return;
        try (InputStream in = zip.getInputStream(e)) {
            XMLStreamReader x = reader(in);
            StringBuilder cur = null;
            int phonetic = 0;
            while (x.hasNext()) {
                int ev = x.next();
                if (ev == XMLStreamConstants.START_ELEMENT) {
                    switch (x.getLocalName()) {
                        case "si" -> cur = new StringBuilder();
                        case "rPh" -> phonetic++;
                        case "t" -> {
                            String t = x.getElementText();
                            if (cur != null && phonetic == 0) cur.append(t);
                        }
                        default -> { }
                    }
                } else if (ev == XMLStreamConstants.END_ELEMENT) {
                    // openpyxl drops "x005F_" (Excel's escape of a literal "_xHHHH_") and leaves other _xHHHH_ escapes as they are
                    if (x.getLocalName().equals("si") && cur != null) { out.add(cur.toString().replace("x005F_", "")); cur = null; }
                    else if (x.getLocalName().equals("rPh")) phonetic--;
                }
            }
        }
    }

    private static void rows(InputStream in, SharedStrings shared, Path file, java.util.function.Consumer<List<Object>> each)
            throws XMLStreamException {
        XMLStreamReader x = reader(in);
        int emitted = 0;
        List<Object> row = null;
        int nextCol = 0;
        String ref = null, type = null, value = null;
        StringBuilder inline = null;
        while (x.hasNext()) {
            int ev = x.next();
            if (ev == XMLStreamConstants.START_ELEMENT) {
                switch (x.getLocalName()) {
                    case "row" -> {
                        String r = x.getAttributeValue(null, "r");
                        int target = r == null ? emitted : Integer.parseInt(r) - 1;
                        while (emitted < target) { each.accept(new ArrayList<>()); emitted++; } // rows absent from the XML are empty
                        row = new ArrayList<>();
                        nextCol = 0;
                    }
                    case "c" -> {
                        ref = x.getAttributeValue(null, "r");
                        type = x.getAttributeValue(null, "t");
                        value = null;
                        inline = null;
                    }
                    case "v" -> value = x.getElementText();
                    case "is" -> inline = new StringBuilder();
                    case "t" -> {
                        String t = x.getElementText();
                        if (inline != null) inline.append(t);
                    }
                    default -> { }
                }
            } else if (ev == XMLStreamConstants.END_ELEMENT && x.getLocalName().equals("c") && row != null) {
                int col = ref == null ? nextCol : column(ref, file);
                while (row.size() <= col) row.add(null);
                row.set(col, cell(type, value, inline, shared, ref, file));
                nextCol = col + 1;
            } else if (ev == XMLStreamConstants.END_ELEMENT && x.getLocalName().equals("row") && row != null) {
                each.accept(row);
                emitted++;
                row = null;
            }
        }
    }

    private static Object cell(String type, String value, StringBuilder inline, SharedStrings shared, String ref, Path file) {
        String t = type == null ? "n" : type;
        switch (t) {
            case "s" -> {
                if (value == null) return null;
                int i = Integer.parseInt(value.strip());
                if (i < 0 || i >= shared.size()) {
                    throw new IllegalArgumentException(file + ": cell " + ref + " names shared string " + i + " of " + shared.size());
                }
                return shared.get(i);
            }
            case "inlineStr" -> { return inline == null ? null : inline.toString(); }
            case "str" -> { return value; }
            case "b" -> { return value == null ? null : value.strip().equals("1"); }
            case "e" -> { return null; } // pandas reads an error cell (#N/A, #DIV/0!) as NaN
            default -> { return value == null ? null : number(value.strip(), ref, file); }
        }
    }

    /** openpyxl's reading of a number as pandas keeps it: an integral value becomes Long ({@code int(v) == v}), others Double. */
    static Object number(String v, String ref, Path file) {
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(file + ": cell " + ref + " holds '" + v + "', which is not a number");
        }
        return !Double.isInfinite(d) && d == Math.rint(d) && Math.abs(d) < 0x1p63 ? (Object) (long) d : (Object) d;
    }

    /** "AB12" → 27 (zero-based column). */
    static int column(String ref, Path file) {
        int col = 0, i = 0;
        while (i < ref.length() && Character.isLetter(ref.charAt(i))) {
            col = col * 26 + (Character.toUpperCase(ref.charAt(i)) - 'A' + 1);
            i++;
        }
        if (i == 0) throw new IllegalArgumentException(file + ": cell reference '" + ref + "' has no column letters");
        return col - 1;
    }
}
