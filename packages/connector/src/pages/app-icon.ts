/**
 * Countersign's icon, drawn once: a check mark countersigned by a pen's stroke, white on the
 * pages' accent blue. The browser tab reads it as SVG; the home-screen icons are PNGs rendered
 * from it by `dev/app-icons.ts` (Safari takes no SVG there), one with the mark inside the
 * central safe zone a maskable icon needs, since Android crops its own shape out of the square.
 */

/** The pages' accent (pages/page-style.ts), light scheme. */
export const ICON_BACKGROUND = '#1b57b8'

/**
 * How the icon fills its square: `rounded` for tabs and Chrome's installed app; `square` for
 * Safari, which rounds the corners itself (and shows a transparent corner black); `maskable`
 * square with the mark within the central 80 % (the safe zone), for Android's own shapes.
 */
export type IconShape = 'rounded' | 'square' | 'maskable'

/** The icon `size` px square, drawn in a 100-unit box. */
export function appIconSvg(shape: IconShape = 'rounded', size = 100): string {
  // The mark in a 100-unit box, scaled into the safe zone for a maskable icon.
  const mark = shape === 'maskable' ? 'translate(15 15) scale(0.7)' : 'translate(6 6) scale(0.88)'
  const corner = shape === 'rounded' ? 22 : 0
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="${size}" height="${size}">
<rect width="100" height="100" rx="${corner}" fill="${ICON_BACKGROUND}"/>
<g transform="${mark}" fill="none" stroke="#ffffff" stroke-linecap="round" stroke-linejoin="round">
<path d="M24 50 L42 67 L76 30" stroke-width="11"/>
<path d="M22 84 C36 78 46 88 58 82 S74 78 80 80" stroke-width="4.5" opacity="0.85"/>
</g>
</svg>`
}
