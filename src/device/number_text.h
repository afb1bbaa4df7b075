/* The one rule for whole numbers written as text (configuration strings,
 * timing parameter files, debug-machine text, replay and run arguments):
 * decimal, or hexadecimal after 0x; a leading zero never means octal
 * ("010" is ten, "08" a number). */
#ifndef WS_DEVICE_NUMBER_TEXT_H
#define WS_DEVICE_NUMBER_TEXT_H

/* The base strtoul/strtoull should read s in. */
static inline int ws_number_base(const char *s)
{
    return s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
}
#endif
