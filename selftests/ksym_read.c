// SPDX-License-Identifier: GPL-2.0
/*
 * Read 32-bit signed integers from kernel memory by symbol, passively:
 * addresses from /proc/kallsyms, contents from /proc/kcore (root).
 *
 *   ksym_read SYM[+OFF]...      prints one value per argument, one line
 *
 * Used by swift_tstamp.sh to look at kernel state no interface shows
 * (netstamp_wanted, the tcp_probe tracepoint's key) without patching
 * kernel text (a kprobe would).
 */
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t sym_addr(const char *name)
{
	char line[512], type, sym[256];
	unsigned long long a;
	FILE *f = fopen("/proc/kallsyms", "r");
	uint64_t found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3)
			continue;
		if (!strcmp(sym, name)) {
			found = a;
			break;
		}
	}
	fclose(f);
	return found;
}

static int kcore_read(int fd, uint64_t addr, void *buf, size_t len)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int i;

	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh))
		return -1;
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * eh.e_phentsize)
		    != sizeof(ph))
			return -1;
		if (ph.p_type != PT_LOAD || addr < ph.p_vaddr ||
		    addr + len > ph.p_vaddr + ph.p_memsz)
			continue;
		return pread(fd, buf, len, ph.p_offset + (addr - ph.p_vaddr))
		       == (ssize_t)len ? 0 : -1;
	}
	return -1;
}

int main(int argc, char **argv)
{
	int fd = open("/proc/kcore", O_RDONLY), i;

	if (fd < 0) {
		perror("/proc/kcore");
		return 1;
	}
	for (i = 1; i < argc; i++) {
		char name[256], *plus;
		long off = 0;
		uint64_t a;
		int32_t v;

		snprintf(name, sizeof(name), "%s", argv[i]);
		plus = strchr(name, '+');
		if (plus) {
			*plus = 0;
			off = strtol(plus + 1, NULL, 0);
		}
		a = sym_addr(name);
		if (!a || kcore_read(fd, a + off, &v, sizeof(v))) {
			fprintf(stderr, "cannot read %s\n", argv[i]);
			return 1;
		}
		printf("%s%d", i > 1 ? " " : "", v);
	}
	printf("\n");
	close(fd);
	return 0;
}
