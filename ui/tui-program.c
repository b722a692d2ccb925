// SPDX-License-Identifier: GPL-2.0
/* ftguard-tui: the TUI on the kernel's events. */
#include "ui/tui.h"

int main(int argc, char **argv)
{
	return tui_main(argc, argv, NULL);
}
