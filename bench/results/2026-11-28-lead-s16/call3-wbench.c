/* write throughput probe: B bytes into files in DIR by several strategies */
#define _GNU_SOURCE
#include <fcntl.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc,char**argv){
  const char*dir=argv[1]; size_t B=(size_t)atoll(argv[2]); int T=omp_get_max_threads();
  size_t CH=1<<20; char*src=malloc(CH); for(size_t i=0;i<CH;i++) src[i]="0123456789 \n"[i%12];
  char p[512]; double t;
  /* a: one thread, write() 1 MiB */
  snprintf(p,sizeof p,"%s/a",dir); unlink(p); t=now(); int fd=open(p,O_WRONLY|O_CREAT|O_TRUNC,0644);
  for(size_t o=0;o<B;o+=CH) if(write(fd,src,CH)!=(ssize_t)CH) return 1; close(fd); printf("write1 %.1f ms\n",(now()-t)*1e3);
  unlink(p);
  /* b: fallocate + mmap, T threads memcpy */
  snprintf(p,sizeof p,"%s/b",dir); unlink(p); t=now(); fd=open(p,O_RDWR|O_CREAT|O_TRUNC,0644);
  if(fallocate(fd,0,0,B)) perror("fallocate");
  char*m=mmap(NULL,B,PROT_READ|PROT_WRITE,MAP_SHARED,fd,0); double t1=now();
  #pragma omp parallel for schedule(dynamic,1)
  for(long o=0;o<(long)(B/CH);o++) memcpy(m+o*CH,src,CH);
  double t2=now(); munmap(m,B); close(fd); printf("mmap%d %.1f ms (setup %.1f, copy %.1f, unmap+close %.1f)\n",T,(now()-t)*1e3,(t1-t)*1e3,(t2-t1)*1e3,(now()-t2)*1e3);
  unlink(p);
  /* c: T threads pwrite into one file */
  snprintf(p,sizeof p,"%s/c",dir); unlink(p); t=now(); fd=open(p,O_WRONLY|O_CREAT|O_TRUNC,0644);
  if(ftruncate(fd,B)) return 1;
  #pragma omp parallel for schedule(dynamic,1)
  for(long o=0;o<(long)(B/CH);o++) if(pwrite(fd,src,CH,o*CH)!=(ssize_t)CH) abort();
  close(fd); printf("pwrite%d %.1f ms\n",T,(now()-t)*1e3); unlink(p);
  /* d: T files, one thread each */
  t=now();
  #pragma omp parallel
  { char q[512]; snprintf(q,sizeof q,"%s/d%d",dir,omp_get_thread_num()); int f=open(q,O_WRONLY|O_CREAT|O_TRUNC,0644);
    for(size_t o=0;o<B/T;o+=CH) if(write(f,src,CH)!=(ssize_t)CH) abort(); close(f);}
  printf("files%d %.1f ms\n",T,(now()-t)*1e3);
  for(int i=0;i<T;i++){snprintf(p,sizeof p,"%s/d%d",dir,i);unlink(p);}
  /* e: fallocate + mmap MADV_HUGEPAGE? not for files; f: pwrite with fallocate first */
  snprintf(p,sizeof p,"%s/f",dir); unlink(p); t=now(); fd=open(p,O_WRONLY|O_CREAT|O_TRUNC,0644);
  if(fallocate(fd,0,0,B)) perror("fallocate");
  #pragma omp parallel for schedule(dynamic,1)
  for(long o=0;o<(long)(B/CH);o++) if(pwrite(fd,src,CH,o*CH)!=(ssize_t)CH) abort();
  close(fd); printf("fallocate+pwrite%d %.1f ms\n",T,(now()-t)*1e3); unlink(p);
  return 0;}
