package dev.gamagent.architecture;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The compiled main code of every module, read from {@code <module>/target/classes}: which classes of ours each class file
 * names in its constant pool (class references and the types in field and method descriptors and generic signatures).
 * A class here is a top-level class with its nested classes ({@code Outer$Nested} counts as {@code Outer}).
 */
final class ClassFiles {
    private static final Pattern DESCRIPTOR_TYPE = Pattern.compile("L(dev/gamagent/[^;<]+)[;<]");

    private ClassFiles() { }

    /** Module directory name (e.g. {@code gam-eval}) to its compiled classes, for every module of the root pom. */
    static Map<String, Path> modules(Path root) {
        Map<String, Path> out = new LinkedHashMap<>();
        for (Path src : PackageCyclesTest.moduleSources(root)) {
            Path module = src.getParent().getParent().getParent();
            Path classes = module.resolve("target/classes");
            if (Files.isDirectory(classes.resolve("dev/gamagent"))) out.put(module.getFileName().toString(), classes);
        }
        return out;
    }

    /** Every class file under {@code classes} (module-info excluded), by binary name with dots. */
    static List<String> classNames(Path classes) {
        try (Stream<Path> files = Files.walk(classes)) {
            return files.filter(f -> f.toString().endsWith(".class") && !f.getFileName().toString().equals("module-info.class"))
                    .map(f -> classes.relativize(f).toString().replace('\\', '/'))
                    .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + classes, e);
        }
    }

    /** The top-level class of a binary name: {@code a.b.Outer$Inner$1} -> {@code a.b.Outer}. */
    static String topLevel(String binaryName) {
        int dollar = binaryName.indexOf('$', binaryName.lastIndexOf('.') + 1);
        return dollar < 0 ? binaryName : binaryName.substring(0, dollar);
    }

    /** Top-level classes of ours (dotted) that one class file refers to. */
    static Set<String> references(byte[] classFile) {
        Set<String> out = new TreeSet<>();
        ConstantPool pool = constantPool(classFile);
        for (String name : pool.classes()) if (name.startsWith("dev/gamagent/")) out.add(topLevel(name.replace('/', '.')));
        for (String text : pool.utf8()) {
            Matcher m = DESCRIPTOR_TYPE.matcher(text);
            while (m.find()) out.add(topLevel(m.group(1).replace('/', '.')));
        }
        return out;
    }

    /** The targets of a class file's class entries (arrays as their element type) and all its UTF-8 entries. */
    record ConstantPool(List<String> classes, List<String> utf8, List<String> strings, List<String> methods) { }

    /** Reads the constant pool (descriptors and signatures are UTF-8 entries). */
    static ConstantPool constantPool(byte[] classFile) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile))) {
            if (in.readInt() != 0xCAFEBABE) throw new IOException("not a class file");
            in.readUnsignedShort();
            in.readUnsignedShort();
            int count = in.readUnsignedShort();
            String[] utf8 = new String[count];
            List<Integer> classEntries = new ArrayList<>(), stringEntries = new ArrayList<>();
            int[] refClass = new int[count], refNameType = new int[count], nameOf = new int[count], classNameOf = new int[count];
            List<Integer> methodEntries = new ArrayList<>();
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = in.readUTF();
                    case 7 -> { classNameOf[i] = in.readUnsignedShort(); classEntries.add(classNameOf[i]); }
                    case 8 -> stringEntries.add(in.readUnsignedShort());
                    case 16, 19, 20 -> in.readUnsignedShort();
                    case 10, 11 -> { refClass[i] = in.readUnsignedShort(); refNameType[i] = in.readUnsignedShort(); methodEntries.add(i); }
                    case 12 -> { nameOf[i] = in.readUnsignedShort(); in.readUnsignedShort(); }
                    case 3, 4, 9, 17, 18 -> in.readInt();
                    case 5, 6 -> { in.readLong(); i++; }
                    case 15 -> { in.readUnsignedByte(); in.readUnsignedShort(); }
                    default -> throw new IOException("unknown constant pool tag " + tag + " at entry " + i);
                }
            }
            List<String> classes = new ArrayList<>();
            for (int idx : classEntries) {
                String n = utf8[idx];
                if (n != null) classes.add(n.startsWith("[") ? n.replaceFirst("^\\[+L?", "").replaceFirst(";$", "") : n);
            }
            List<String> texts = new ArrayList<>();
            for (String s : utf8) if (s != null) texts.add(s);
            List<String> strings = new ArrayList<>();
            for (int idx : stringEntries) strings.add(utf8[idx]);
            List<String> methods = new ArrayList<>();
            for (int m : methodEntries) methods.add(utf8[classNameOf[refClass[m]]].replace('/', '.') + "." + utf8[nameOf[refNameType[m]]]);
            return new ConstantPool(classes, texts, strings, methods);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read a class file: " + e.getMessage(), e);
        }
    }
}
