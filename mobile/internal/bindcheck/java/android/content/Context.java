// Stub for javac: the only Android class the generated bindings need (go.Seq.setContext).
package android.content; public class Context {}
