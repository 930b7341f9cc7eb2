// Sample is the Java counterpart of the Kotlin snippet in docs/MOBILE.md:
// check.sh compiles it against the generated bindings, so the names,
// parameter types and checked exceptions the docs show are the real ones.
package com.psd2live.p2l.sample;

import com.psd2live.p2l.mobile.Listener;
import com.psd2live.p2l.mobile.Mobile;

public final class Sample {
    static final class Events implements Listener {
        @Override public void onHit(String areaID) { System.out.println("hit " + areaID); }
        @Override public void onEvent(String clipID, String value) { System.out.println(clipID + ": " + value); }
        @Override public void onError(String message) { System.err.println(message); }
    }

    static void drive(byte[] model, byte[] pcm) {
        try {
            Mobile.loadModel(model);
            for (long i = 0; i < Mobile.loadWarningCount(); i++) {
                System.err.println(Mobile.loadWarning(i));
            }
            Mobile.setListener(new Events());
            Mobile.setBackground(1.0, 1.0, 1.0, 1.0);
            for (long i = 0; i < Mobile.clipCount(); i++) {
                System.out.println(Mobile.clipID(i) + " in " + Mobile.clipGroup(i) + ", " + Mobile.clipDuration(i) + " s, sound " + Mobile.clipSound(i));
            }
            Mobile.playClip("idle");
            Mobile.playClipLayer(1, "wave", Mobile.PriorityNormal);
            Mobile.setExpression("smile");
            Mobile.addExpression("blush");
            Mobile.removeExpression("blush");
            Mobile.lookAt(0.5, -0.2);
            Mobile.setLipSync(0.8);
            Mobile.lipSyncPCM(pcm, 44100);
            String area = Mobile.hitTest(0.5, 0.3);
            Mobile.setTapReaction("HitAreaBody", "wave");
            Mobile.setParameter("ParamAngleX", 15.0);
            double angle = Mobile.parameter("ParamAngleX");
            long on = Mobile.setAdvanced(Mobile.advancedFeatures() & (Mobile.AdvancedSkin | Mobile.AdvancedExactLinks));
            long bits = Mobile.advanced();
            Mobile.setBehaviors(Mobile.BehaviorBlink | Mobile.BehaviorLookAt);
            Mobile.setLipSyncGain(2.0);
            Mobile.setFraming(2.5, 0.5, 0.2);
            Mobile.setIdleRate(15);
            Mobile.pause();
            Mobile.resume();
            System.out.println(area + " " + angle + " " + on + " " + bits + " " + Mobile.paused());
        } catch (Exception e) {
            System.err.println("model: " + e.getMessage());
        }
    }

    private Sample() {}
}
